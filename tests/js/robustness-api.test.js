// Robustness of every JS entry point (tests/js/entry-points.js): random and
// malformed arguments give either finite results or a documented error
// (TypeError/RangeError/Error whose message starts with the parameter name),
// and the WASM memory is not corrupted (the valid call still gives the same result).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FUNCTIONS } from './entry-points.js';
import { RUNS, anyFiniteNumber, callSafely, expectClose, garbage, mutateOptions } from './robustness.js';
import { ikpd } from './setup.js';

function lookup(path) {
  const parts = path.split('.');
  let owner = ikpd;
  for (const p of parts.slice(0, -1)) owner = owner?.[p];
  const fn = owner?.[parts.at(-1)];
  return typeof fn === 'function' ? (...args) => fn.apply(owner, args) : null;
}

/** Paths (arrays of keys) to every leaf of `value` for which `test(leaf, owner)` holds. */
function leafPaths(value, test, path = [], owner = null, out = []) {
  if (test(value, owner) && path.length) out.push(path);
  if (value !== null && typeof value === 'object' && !ArrayBuffer.isView(value)) {
    for (const key of Object.keys(value)) leafPaths(value[key], test, [...path, key], value, out);
  }
  return out;
}

function setPath(root, path, value) {
  let owner = root;
  for (const key of path.slice(0, -1)) owner = owner[key];
  owner[path.at(-1)] = value;
}

function getPath(root, path) {
  return path.reduce((o, k) => o[k], root);
}

const isNumberArray = (v) => Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'number');

describe.each(FUNCTIONS.map((f) => [f.path, f]))('ikpd.%s', (path, spec) => {
  const fn = lookup(path);

  it.runIf(fn)('throws only documented errors for one malformed or missing argument/option', () => {
    const reference = fn(...spec.args());
    fc.assert(
      fc.property(mutateOptions(spec.args()), ([args]) => {
        callSafely(() => fn(...args));
      }),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.array(garbage, { maxLength: 3 }), (args) => {
        callSafely(() => fn(...args));
      }),
      { numRuns: RUNS },
    );
    expectClose(fn(...spec.args()), reference);
  });

  it.runIf(fn)('gives finite results or a documented error for any finite numbers, huge and tiny included', () => {
    const reference = fn(...spec.args());
    const numeric = leafPaths(spec.args(), (v) => typeof v === 'number');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...numeric), anyFiniteNumber), { maxLength: numeric.length }), (edits) => {
        const args = spec.args();
        for (const [p, v] of edits) setPath(args, p, v);
        callSafely(() => fn(...args));
      }),
      { numRuns: RUNS },
    );
    expectClose(fn(...spec.args()), reference);
  });

  it.runIf(fn)('accepts typed arrays wherever it accepts number arrays, with the same result', () => {
    const reference = fn(...spec.args());
    const arrays = leafPaths(spec.args(), isNumberArray);
    fc.assert(
      fc.property(fc.subarray(arrays), fc.constantFrom(Float32Array, Float64Array), (chosen, Type) => {
        const args = spec.args();
        for (const p of chosen) setPath(args, p, Type.from(getPath(args, p)));
        expectClose(fn(...args), reference);
      }),
      { numRuns: Math.min(RUNS, 50) },
    );
  });

  it.runIf(fn)('does not keep or modify its arguments', () => {
    const args = spec.args();
    const copy = structuredClone(args);
    fn(...args);
    expect(args).toEqual(copy);
  });
});
