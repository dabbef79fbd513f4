// Development-only diagnostics; "development" is core.js's isDevelopment(), so
// production builds never warn.
import { isDevelopment } from './core.js';

const warned = new Set();

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

let development; // isDevelopment(), read once: the option check below runs per call
let optionChecks = 0;

/**
 * Warns (once per name, in development only) about keys of `options` that are
 * not in `known` (an object keyed by option name), e.g. `poll:` for `pole:`,
 * which would otherwise be silently ignored. Checks the first 1024 calls and
 * every 64th call after, so a hot loop pays a counter increment.
 */
export function warnUnknownOptions(options, known, where) {
  optionChecks++;
  if (optionChecks > 1024 && (optionChecks & 63) !== 0) return;
  development ??= isDevelopment();
  if (!development) return;
  for (const key in options) {
    if (Object.hasOwn(known, key)) continue;
    const names = Object.keys(known);
    const close = names.find((name) => editDistance(name, key) <= 2);
    warnOnce(`option ${where} ${key}`, `ikpd: ${where}: unknown option '${key}' is ignored` +
      `${close ? ` (did you mean '${close}'?)` : ''}; expected one of ${names.join(', ')}. ` +
      'Shown once per name, in development builds only.');
  }
}

/** The name in `names` nearest to `key` (at most 2 edits, ignoring case), or undefined. */
export function nearestName(key, names) {
  let best;
  let bestDistance = 3;
  for (const name of names) {
    const d = editDistance(name.toLowerCase(), key.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [name, d];
  }
  return best;
}

function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length];
}
