// Robustness of the shared readers every entry point uses (web/src/readers.js):
// any value gives either the packed float32 data or a documented error.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readEnum, readNumber, readOptions, readQuat, readTransform, readVec3, readVector } from '../../web/src/readers.js';
import { RUNS, badNumber, expectDocumentedError, garbage } from '../support/robustness.js';

function throwsDocumented(fn, name) {
  let error;
  try {
    fn();
  } catch (e) {
    error = e;
  }
  expect(error, 'expected an error').toBeDefined();
  expectDocumentedError(error);
  expect(error.message.startsWith(name)).toBe(true);
  return error;
}

describe('core readers', () => {
  it('readNumber accepts only finite numbers within its bounds', () => {
    fc.assert(
      fc.property(garbage, (value) => {
        const ok = typeof value === 'number' && Number.isFinite(value) && value >= -1 && value <= 1;
        if (ok) expect(readNumber(value, 'weight', { min: -1, max: 1 })).toBe(value);
        else throwsDocumented(() => readNumber(value, 'weight', { min: -1, max: 1 }), 'weight');
      }),
      { numRuns: RUNS * 3 },
    );
    throwsDocumented(() => readNumber(1.5, 'count', { integer: true }), 'count');
  });

  it('readVector packs elements finite as float32 and rejects everything else without partial garbage', () => {
    fc.assert(
      fc.property(fc.oneof(garbage, fc.array(fc.oneof(fc.double(), badNumber), { minLength: 3, maxLength: 3 })), (value) => {
        const out = new Float32Array(5).fill(7);
        const valid = (Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView)))
          && value.length === 3 && Array.prototype.every.call(value, (v) => typeof v === 'number' && Math.abs(v) <= 3.4028234663852886e38); // finite as float32
        if (valid) {
          readVector(value, 'target', 3, out, 1);
          expect(Array.from(out.subarray(1, 4))).toEqual(Array.from(value, Math.fround));
        } else {
          throwsDocumented(() => readVector(value, 'target', 3, out, 1), 'target');
        }
        expect(out[0]).toBe(7);
        expect(out[4]).toBe(7);
      }),
      { numRuns: RUNS * 3 },
    );
  });

  it('error messages survive Symbols, BigInts and objects without toString', () => {
    const out = new Float32Array(4);
    for (const v of [Symbol('s'), 1n, Object.create(null), { toString: null }, [[]]]) {
      throwsDocumented(() => readVec3([0, v, 0], 'position', out, 0), 'position[1]');
      throwsDocumented(() => readEnum(v, 'method', ['ccd', 'fabrik']), 'method');
    }
    const cyclic = {};
    cyclic.self = cyclic;
    throwsDocumented(() => readEnum(cyclic, 'method', ['ccd']), 'method');
  });

  it('readQuat rejects zero quaternions; readTransform defaults rotation and names nested fields', () => {
    const out = new Float32Array(7);
    throwsDocumented(() => readQuat([0, 0, 0, 0], 'rotation', out, 0), 'rotation');
    throwsDocumented(() => readQuat([1e-7, 0, 0, 0], 'rotation', out, 0), 'rotation');
    readTransform({ position: [1, 2, 3] }, 'root', out, 0);
    expect(Array.from(out)).toEqual([1, 2, 3, 0, 0, 0, 1]);
    throwsDocumented(() => readTransform({ position: [1, 2, 3], rotation: [0, 0, NaN, 1] }, 'root', out, 0), 'root.rotation[2]');
    fc.assert(
      fc.property(garbage, (value) => {
        try {
          readTransform(value, 'mid', out, 0);
        } catch (e) {
          expectDocumentedError(e);
          expect(e.message.startsWith('mid')).toBe(true);
        }
      }),
      { numRuns: RUNS },
    );
  });

  it('readEnum and readOptions accept only their documented shapes', () => {
    fc.assert(
      fc.property(garbage, (value) => {
        if (value === 'ccd' || value === 'fabrik') expect(readEnum(value, 'method', ['ccd', 'fabrik'])).toBeGreaterThanOrEqual(0);
        else throwsDocumented(() => readEnum(value, 'method', ['ccd', 'fabrik']), 'method');
        const isOptions = value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value);
        if (isOptions) expect(readOptions(value)).toBe(value);
        else throwsDocumented(() => readOptions(value), 'options');
      }),
      { numRuns: RUNS * 3 },
    );
  });
});
