// Each number a job description carries (cpp/bindings/job_fields.h) states its
// valid range; JS checks it before packing (web/src/fields.js) and the job's
// C++ Validate() checks it again. For every described number, a value just
// outside the range must be rejected by both with a message naming the field,
// and each closed finite bound accepted by both, so the description and
// Validate() cannot drift apart.
import { describe, expect, it } from 'vitest';
import { createModule } from '../../web/src/module.js';
import { readJobDescriptions } from '../../web/src/fields.js';
import { FUNCTIONS } from './entry-points.js';
import { ikpd } from './setup.js';

const wasm = await createModule();
const jobs = readJobDescriptions(wasm.jobDescriptions(), wasm.HEAPF32);

// Per job: the public single call, a valid options object, and the native
// prepared solver that runs the C++ Validate() on a packed job.
const validOptions = (path) => FUNCTIONS.find((e) => e.path === path && e.name === undefined).args()[0];
const JOBS = {
  twoBone: { call: 'solveTwoBone', native: () => new wasm.TwoBoneSolver() },
  aim: { call: 'solveAim', native: () => new wasm.AimSolver() },
  pseudoThreeBone: { call: 'solvePseudoThreeBone', native: () => new wasm.PseudoThreeBoneSolver() },
  chain: { call: 'solveChain', native: () => new wasm.ChainSolver(4) },
};

// The float32 next to x toward -Infinity (dir -1) or +Infinity (dir +1).
function nextFloat(x, dir) {
  const f = new Float32Array([x]);
  const bits = new Int32Array(f.buffer);
  if (x === 0) return dir * 1.401298464324817e-45;
  bits[0] += (x > 0) === (dir > 0) ? 1 : -1;
  return f[0];
}

// The double next to x toward -Infinity (dir -1) or +Infinity (dir +1).
function nextDouble(x, dir) {
  const f = new Float64Array([x]);
  const bits = new BigInt64Array(f.buffer);
  if (x === 0) return dir * 5e-324;
  bits[0] += (x > 0) === (dir > 0) ? 1n : -1n;
  return f[0];
}

// Values just outside the range: float32 values for float fields (so JS and
// C++ see the same number), integers for an integer field (C++ reads it
// truncated), doubles for double fields (f64).
function outside({ min, max, minOpen, maxOpen }, integer, f64 = false) {
  const out = [NaN];
  if (integer) return [...out, minOpen ? min : min - 1, maxOpen ? max : max + 1].filter(Number.isFinite);
  const next = f64 ? nextDouble : nextFloat;
  if (min === -Infinity) {
    if (minOpen) out.push(-Infinity, f64 ? -Number.MAX_VALUE : -1e39);
  } else {
    out.push(minOpen ? min : next(min, -1));
  }
  if (max === Infinity) {
    if (maxOpen) out.push(Infinity);
    if (maxOpen && !f64) out.push(1e39);
  } else {
    out.push(maxOpen ? max : next(max, 1));
  }
  return out;
}

// Closed bounds, which both sides must accept.
const bounds = ({ min, max, minOpen, maxOpen }) => [minOpen ? undefined : min, maxOpen ? undefined : max].filter((v) => v !== undefined);

// The C++ verdict on `value` (undefined: as packed) in field `f` of a job packed with `options`:
// null when valid, else the error message.
function nativeVerdict(job, f, options, value) {
  const layout = jobs[job];
  const solver = JOBS[job].native();
  try {
    const s = new Float32Array(wasm.HEAPF32.buffer, solver.pointer() >>> 0, layout.floats);
    layout.pack(options, s);
    if (value !== undefined) s[f.offset] = value;
    const error = job === 'chain' ? solver.setOptions(-1) : f.role === 'option' ? solver.setOptions() : solver.solve();
    return error ? wasm.UTF8ToString(error >>> 0) : null;
  } finally {
    solver.delete();
  }
}

// The chain's single call takes joints; its packed job does not.
const packable = (job, options) => {
  if (job !== 'chain') return options;
  const { joints, ...rest } = options;
  return rest;
};

describe('described ranges equal the C++ Validate() ranges', () => {
  for (const [job, { call }] of Object.entries(JOBS)) {
    const layout = jobs[job];
    const numbers = layout.fields.filter((f) => f.kind === 'number' || f.kind === 'integer');

    it(`${job}: every number field carries a range`, () => {
      expect(numbers.length).toBeGreaterThan(0);
      for (const f of numbers) expect(f.range, `${job}.${f.name}`).toBeDefined();
    });

    for (const f of numbers) {
      it(`${job}.${f.name}: ${JSON.stringify(f.range)}`, () => {
        const options = validOptions(call);
        const packed = packable(job, options);
        expect(nativeVerdict(job, f, packed, undefined), 'the sample is valid').toBeNull();
        for (const value of outside(f.range, f.kind === 'integer')) {
          const js = () => ikpd[call]({ ...options, [f.name]: value });
          expect(js, `JS ${f.name} = ${value}`).toThrow(RangeError);
          expect(js, `JS ${f.name} = ${value}`).toThrow(new RegExp(`^${f.name}: `));
          const native = nativeVerdict(job, f, packed, value);
          expect(native, `C++ ${f.name} = ${value}`).toMatch(new RegExp(`^${f.name}: `));
        }
        const s = new Float32Array(layout.floats);
        for (const value of bounds(f.range)) {
          const base = { ...packed };
          // A bound of one angle limit must not cross the other's default.
          if (f.name === 'minAngle') base.maxAngle = Math.PI;
          if (f.name === 'maxAngle') base.minAngle = 0;
          expect(() => layout.pack({ ...base, [f.name]: value }, s), `JS ${f.name} = ${value}`).not.toThrow();
          expect(nativeVerdict(job, f, base, value), `C++ ${f.name} = ${value}`).toBeNull();
        }
      });
    }
  }

  it('messages state the range', () => {
    const options = validOptions('solveTwoBone');
    expect(() => ikpd.solveTwoBone({ ...options, minAngle: -0.5 })).toThrow(new RangeError('minAngle: must be in [0, pi]'));
    expect(() => ikpd.solveTwoBone({ ...options, maxStretch: 0.5 })).toThrow(new RangeError('maxStretch: must be a finite number >= 1'));
    expect(() => ikpd.solveTwoBone({ ...options, twist: 1e39 })).toThrow(new RangeError('twist: must be finite'));
    expect(() => ikpd.solveTwoBone({ ...options, weight: '1' })).toThrow(TypeError);
    expect(() => ikpd.solveChain({ ...validOptions('solveChain'), iterations: 2.5 })).toThrow(new RangeError('iterations: must be an integer, got 2.5'));
  });
});

// The PD options (cpp/bindings/pd_fields.h), packed as doubles: JS against
// GainOptions::Resolve and PdSettings::Validate (a QuatPD takes every option).
describe('described PD option ranges equal the C++ ranges', () => {
  const layout = jobs.pd;
  const numbers = layout.fields.filter((f) => f.range);
  const io = () => new Float64Array(wasm.HEAPF64.buffer, wasm.pdBuffer() >>> 0, 32);
  function nativeVerdict(f, value) {
    const s = io();
    layout.pack({}, s);
    s[f.offset] = value;
    if (f.kind === 'optionalNumber') s[f.offset + 1] = 1;
    const handle = new wasm.PdQuat();
    try {
      const error = handle.configure();
      return error ? wasm.UTF8ToString(error >>> 0) : null;
    } finally {
      handle.delete();
    }
  }

  it('every number option carries a range', () => {
    for (const f of layout.fields) if (f.kind === 'number' || f.kind === 'optionalNumber') expect(f.range, f.name).toBeDefined();
  });

  for (const f of numbers) {
    it(`${f.name}: ${JSON.stringify(f.range)}`, () => {
      for (const value of outside(f.range, false, true)) {
        const js = () => new ikpd.QuatPD({ [f.name]: value }).dispose();
        expect(js, `JS ${f.name} = ${value}`).toThrow(RangeError);
        expect(js, `JS ${f.name} = ${value}`).toThrow(new RegExp(`^${f.name}: `));
        expect(nativeVerdict(f, value), `C++ ${f.name} = ${value}`).toMatch(new RegExp(`^${f.name}: `));
      }
      for (const value of bounds(f.range)) {
        expect(() => new ikpd.QuatPD({ [f.name]: value }).dispose(), `JS ${f.name} = ${value}`).not.toThrow();
        expect(nativeVerdict(f, value), `C++ ${f.name} = ${value}`).toBeNull();
      }
    });
  }

  it('damping presets come from C++', () => {
    expect(layout.byName.damping.presets).toEqual({ critical: 1, responsive: Math.SQRT1_2, over: 1.5 });
    expect(() => new ikpd.PD({ damping: 'soft' })).toThrow(/^damping: /);
  });
});
