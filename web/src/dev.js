// Development-only diagnostics. "Development" is decided per call:
// - where `process` exists (Node, bundlers that define it): process.env.NODE_ENV !== 'production';
// - elsewhere (browsers): only when the page sets `globalThis.IKPD_DEV = true`.
// Production browser builds never warn.

/** Whether `scope` (default globalThis) is a development environment, as described above. */
export function isDevelopment(scope = globalThis) {
  const proc = scope.process;
  if (proc !== undefined && proc !== null && typeof proc === 'object' && proc.env) {
    return proc.env.NODE_ENV !== 'production';
  }
  return scope.IKPD_DEV === true;
}

const warned = new Set();

/** console.warn(message) the first time `key` is seen, in development only. */
export function warnOnce(key, message, scope = globalThis) {
  if (warned.has(key) || !isDevelopment(scope)) return;
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
