// Robustness of every JS entry point (tests/support/entry-points.js): random and
// malformed arguments give either finite results or a documented error
// (TypeError/RangeError/Error whose message starts with the parameter name),
// and the WASM memory is not corrupted (the valid call still gives the same result).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CLASSES, FUNCTIONS } from '../support/entry-points.js';
import { RUNS, anyFiniteNumber, callSafely, expectClose, garbage, mutateOptions } from '../support/robustness.js';
import { ikpd } from '../support/setup.js';

function lookup(path) {
  const parts = path.split('.');
  let owner = ikpd;
  for (const p of parts.slice(0, -1)) owner = owner?.[p];
  const fn = owner?.[parts.at(-1)];
  if (typeof fn !== 'function') throw new Error(`ikpd.${path}: not a function (tests/js/api-inventory.test.js)`);
  return (...args) => fn.apply(owner, args);
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

describe.each(FUNCTIONS.map((f) => [f.name ?? f.path, f]))('ikpd.%s', (_, spec) => {
  const { path } = spec;
  const raw = lookup(path);
  const fn = raw && spec.result ? (...args) => spec.result(raw(...args)) : raw;

  it('throws only documented errors for one malformed or missing argument/option, and leaks nothing', () => {
    const reference = fn(...spec.args());  // first use may allocate lasting caches
    const round = () => {
      fc.assert(
        fc.property(mutateOptions(spec.args()), ([args]) => {
          callSafely(() => fn(...args), { allowInfinity: spec.mayBeInfinite });
        }),
        { numRuns: spec.runs ?? RUNS },
      );
      fc.assert(
        fc.property(fc.array(garbage, { maxLength: 3 }), (args) => {
          callSafely(() => fn(...args), { allowInfinity: spec.mayBeInfinite });
        }),
        { numRuns: spec.runs ?? RUNS },
      );
    };
    // Measured around a second, identical round (fixed seed): a call that grows
    // the WASM heap leaves a few bytes of the allocator's bookkeeping at its
    // new top once, depending on where the top lay, never per call.
    round();
    const before = ikpd.memoryStats().usedBytes;
    round();
    expectClose(fn(...spec.args()), reference);
    expect(ikpd.memoryStats().usedBytes).toBe(before);
  });

  it('gives finite results or a documented error for any finite numbers, huge and tiny included', () => {
    const reference = fn(...spec.args());
    const numeric = leafPaths(spec.args(), (v) => typeof v === 'number');
    if (numeric.length) fc.assert(
      fc.property(fc.array(fc.tuple(fc.constantFrom(...numeric), anyFiniteNumber), { maxLength: numeric.length }), (edits) => {
        const args = spec.args();
        for (const [p, v] of edits) setPath(args, p, v);
        callSafely(() => fn(...args), { allowInfinity: spec.mayBeInfinite });
      }),
      { numRuns: spec.runs ?? RUNS },
    );
    expectClose(fn(...spec.args()), reference);
  });

  it('accepts typed arrays wherever it accepts number arrays, with the same result', () => {
    const reference = fn(...spec.args());
    const arrays = leafPaths(spec.args(), isNumberArray);
    fc.assert(
      fc.property(fc.subarray(arrays), fc.constantFrom(Float32Array, Float64Array), (chosen, Type) => {
        const args = spec.args();
        for (const p of chosen) setPath(args, p, Type.from(getPath(args, p)));
        expectClose(fn(...args), reference);
      }),
      { numRuns: Math.min(spec.runs ?? RUNS, 50) },
    );
  });

  it(spec.fillsResult ? 'does not modify its other arguments, and returns the one it fills' : 'does not keep or modify its arguments', () => {
    const args = spec.args();
    const kept = spec.fillsResult ? args.slice(0, -1) : args;
    const copy = structuredClone(kept);
    if (spec.fillsResult) {
      expect(raw(...args)).toBe(args.at(-1));
    } else {
      fn(...args);  // through spec.result, which frees what owns WASM memory
    }
    expect(kept).toEqual(copy);
  });
});

// Deep copy with typed arrays (views of WASM memory) turned into plain arrays.
function copy(value) {
  if (ArrayBuffer.isView(value)) return Array.from(value);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, copy(v)]));
}

// Snapshot of an object's observable state (getters listed in the spec).
function observe(object, spec) {
  return copy(Object.fromEntries(spec.observe.map((k) => [k, object[k]])));
}

describe.each(CLASSES.map((c) => [c.name, c]))('new ikpd.%s', (name, spec) => {
  const Class = ikpd[name];

  it('constructor: malformed arguments give documented errors and leak nothing', () => {
    new Class(...spec.args()).dispose();  // first use may allocate lasting caches
    const before = ikpd.memoryStats().usedBytes;
    fc.assert(
      fc.property(fc.oneof(mutateOptions(spec.args()).map(([a]) => a), fc.array(garbage, { maxLength: 3 })), (args) => {
        const { ok, value } = callSafely(() => new Class(...args));
        if (ok) value.dispose();
      }),
      { numRuns: spec.runs ?? RUNS },
    );
    expect(ikpd.memoryStats().usedBytes).toBe(before);
  });

  it('methods: a failed call changes nothing; the same valid calls give the same states', () => {
    const names = Object.keys(spec.calls);
    // A step is a valid call, or a call with one argument replaced/removed, or random arguments.
    const step = fc.constantFrom(...names).chain((method) => fc.tuple(
      fc.constant(method),
      fc.oneof(
        fc.constant(spec.calls[method]()),
        mutateOptions(spec.calls[method]()).map(([a]) => a),
        fc.array(garbage, { maxLength: 3 }),
      ),
    ));
    fc.assert(
      fc.property(fc.array(step, { maxLength: 12 }), (steps) => {
        const a = new Class(...spec.args());
        const b = new Class(...spec.args());  // receives only the calls that succeeded on `a`
        spec.init?.(a);
        spec.init?.(b);
        try {
          for (const [method, args] of steps) {
            const before = observe(a, spec);
            const { ok } = callSafely(() => a[method](...args), { allowInfinity: spec.mayBeInfinite?.includes(method) });
            if (ok) b[method](...args);
            else expect(observe(a, spec)).toEqual(before);
            expectClose(observe(a, spec), observe(b, spec));
          }
        } finally {
          a.dispose();
          b.dispose();
        }
      }),
      { numRuns: spec.runs ?? RUNS },
    );
  });
});
