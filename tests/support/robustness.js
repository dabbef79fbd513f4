// Shared helpers for the robustness property tests (tests/js/robustness*.test.js):
// arbitraries for malformed values, and the check that an entry point either
// returns finite results or throws a documented error naming a parameter.
import fc from 'fast-check';
import { expect } from 'vitest';

/** Number of random cases per property (kept small enough for 2-core CI). */
export const RUNS = Number(process.env.IKPD_ROBUSTNESS_RUNS ?? 300);

/** Values no numeric parameter accepts, and numbers that overflow float32 or are not finite. */
export const badNumber = fc.oneof(
  fc.constantFrom(NaN, Infinity, -Infinity, 1e39, -1e39, 1e308, -Number.MAX_VALUE),
  fc.constantFrom(undefined, null, '1', '', true, 1n, Symbol('x'), [], [1], {}, () => 1),
  fc.constant(Object.create(null)),
  fc.constant({ valueOf: () => 1 }),
);

/** Finite numbers of every size, float32 extremes and denormals included. */
export const anyFiniteNumber = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1, -1, 1e-45, 3.4e38, -3.4e38, 1e30, 1e-30),
  fc.float({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: -10, max: 10 }),
);

/** Any value at all, including the malformed ones above. */
export const garbage = fc.oneof(
  badNumber,
  anyFiniteNumber,
  fc.anything(),
  fc.array(fc.oneof(anyFiniteNumber, badNumber), { maxLength: 6 }),
  fc.array(fc.double(), { minLength: 0, maxLength: 8 }).map((a) => new Float32Array(a)),
  fc.constantFrom(new Float64Array(3), new Int8Array(4), new DataView(new ArrayBuffer(16)), new BigInt64Array(3)),
  fc.string(),
);

/**
 * Replaces, deletes or adds one key of `valid` (a plain options object, possibly
 * nested through arrays/objects) with garbage. Returns [mutated, path].
 */
export function mutateOptions(valid) {
  const paths = [];
  (function collect(value, path) {
    if (path.length) paths.push(path);
    if (value !== null && typeof value === 'object') {
      for (const key of Object.keys(value)) collect(value[key], [...path, key]);
    }
  })(valid, []);
  // Nothing to mutate (no arguments): pass extra garbage arguments instead.
  if (!paths.length) return fc.array(garbage, { minLength: 1, maxLength: 3 }).map((extra) => [[...structuredClone(valid), ...extra], 'extra']);
  return fc.tuple(fc.constantFrom(...paths), garbage, fc.constantFrom('replace', 'delete', 'replace')).map(
    ([path, value, how]) => {
      const copy = structuredClone(valid);
      let owner = copy;
      for (const key of path.slice(0, -1)) owner = owner[key];
      if (how === 'delete') delete owner[path.at(-1)];
      else owner[path.at(-1)] = value;
      return [copy, path.join('.')];
    },
  );
}

/** The documented error contract: TypeError/RangeError/Error whose message starts with "name: " (batches: "items[N].name: "). */
export function expectDocumentedError(error) {
  expect(error, String(error)).toBeInstanceOf(Error);
  expect([TypeError, RangeError, Error]).toContain(error.constructor);
  // Batches prefix the failing element: "items[3].target: must be finite" (matched by the name pattern).
  expect(error.message).toMatch(/^(item \d+: )?[A-Za-z_][\w.[\]]*: \S/);
}

/**
 * True when every number reachable from `value` (arrays, typed arrays, plain
 * objects) is finite; with `allowInfinity`, ±Infinity passes too (documented
 * sentinels such as maxStableDt or timeToSettle), never NaN.
 */
export function allFinite(value, allowInfinity = false) {
  const ok = allowInfinity ? (v) => !Number.isNaN(v) : Number.isFinite;
  if (typeof value === 'number') return ok(value);
  if (value === null || typeof value !== 'object') return true;
  if (ArrayBuffer.isView(value)) return Array.prototype.every.call(value, ok);
  return Object.values(value).every((v) => allFinite(v, allowInfinity));
}

/**
 * Calls fn(); it must return a value whose numbers are all finite or throw a
 * documented error. Returns { ok, value | error }.
 */
export function callSafely(fn, { allowInfinity = false } = {}) {
  let value;
  try {
    value = fn();
  } catch (error) {
    expectDocumentedError(error);
    return { ok: false, error };
  }
  expect(allFinite(value, allowInfinity), `non-finite result ${String(JSON.stringify(value))}`).toBe(true);
  return { ok: true, value };
}

/** Deep numeric equality within `tolerance` (results compared before/after abuse). */
export function expectClose(actual, expected, tolerance = 0) {
  if (typeof expected === 'number') {
    expect(Math.abs(actual - expected)).toBeLessThanOrEqual(tolerance);
    return;
  }
  if (expected === null || typeof expected !== 'object') {
    expect(actual).toEqual(expected);
    return;
  }
  expect(Object.keys(actual).sort()).toEqual(Object.keys(expected).sort());
  for (const key of Object.keys(expected)) expectClose(actual[key], expected[key], tolerance);
}
