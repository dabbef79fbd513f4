// Development-only diagnostics; "development" is core.js's isDevelopment(), so
// production builds never warn.
import { isDevelopment } from './core.js';

const warned = /* @__PURE__ */ new Set();

/** console.warn(message) the first time `key` is seen, in development only. */
export function warnOnce(key, message) {
  if (warned.has(key) || !isDevelopment()) return;
  warned.add(key);
  console.warn(message);
}

/** Time steps are in seconds: a dt above 1 s is most likely milliseconds (16 for 0.016). */
export function warnIfMilliseconds(dt, object, method) {
  if (dt > 1) {
    warnOnce('dt-milliseconds', `ikpd: ${object.constructor.name}.${method}(dt = ${dt}): dt is in seconds, and a ` +
      'step above 1 s is usually milliseconds passed by mistake (16 ms is dt = 0.016). ' +
      'Shown once, in development builds only.');
  }
}
