// Each number a job description carries (cpp/src/<area>/fields.h) states its
// valid range; JS checks it before packing (web/src/fields.js) and the job's
// C++ Validate() checks it again. For every described number, a value just
// outside the range must be rejected by both with a message naming the field,
// and each closed finite bound accepted by both, so the description and
// Validate() cannot drift apart.
import { describe, expect, it } from 'vitest';
import { bindAllAreas, createModule } from '../../web/src/module.js';
import { JOBS as jobs } from '../../web/src/jobs.js';
import { FUNCTIONS } from '../support/entry-points.js';
import { ikpd } from '../support/setup.js';

const wasm = bindAllAreas(await createModule({ batch: true }));

// Per job: the public single call, a valid options object, and the native
// prepared solver that runs the C++ Validate() on a packed job.
const validOptions = (path) => FUNCTIONS.find((e) => e.path === path && e.name === undefined).args()[0];
const JOBS = {
  twoBone: { call: 'solveTwoBone', native: () => wasm.TwoBoneSolver.create() },
  aim: { call: 'solveAim', native: () => wasm.AimSolver.create() },
  pseudoThreeBone: { call: 'solvePseudoThreeBone', native: () => wasm.PseudoThreeBoneSolver.create() },
  chain: { call: 'solveChain', native: () => wasm.ChainSolver.create(4) },
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

// Options of stateful objects: the PD options (cpp/src/pd/fields.h,
// against GainOptions::Resolve and PdSettings::Validate; a QuatPD takes every
// option), LookAt's and Tentacle2D's (cpp/src/rig/fields.h, cpp/src/ik/fields.h, against their Reset),
// BodyLookAt's (cpp/src/rig/fields.h, against BodyLookAtSettings::Validate).
// `buffer(handle)`: the typed array the options are packed in; `run(handle)`:
// the C++ call that validates them.
const scratch = (values) => {
  new Float32Array(wasm.HEAPF32.buffer, wasm.scratchPointer() >>> 0, values.length).set(values);
  return wasm.scratchPointer();
};
const SETTINGS = {
  pd: {
    js: (o) => new ikpd.QuatPD(o),
    native: () => wasm.PdQuat(),
    buffer: () => new Float64Array(wasm.HEAPF64.buffer, wasm.pdBuffer() >>> 0, 32),
    run: (h) => h.configure(),
  },
  lookAt: {
    js: (o) => new ikpd.LookAt({ weights: [1], ...o }),
    native: () => wasm.LookAt.create(),
    buffer: (h) => new Float32Array(wasm.HEAPF32.buffer, h.settings() >>> 0, jobs.lookAt.floats),
    run: (h) => h.reset(scratch([1]), 1, 0, 0),
  },
  bodyLookAt: {
    // "group.option" fields as nested options; both settle-time ends are spine.settleTime in JS.
    js: (o) => {
      const options = {};
      for (const [key, value] of Object.entries(o)) {
        const [group, option] = key.split('.');
        if (option === undefined) options[key] = value;
        else (options[group] ??= {})[/SettleTime$/.test(option) && group === 'spine' ? 'settleTime' : option] = value;
      }
      return new ikpd.BodyLookAt(options);
    },
    native: () => wasm.BodyLookAt.create(),
    buffer: (h) => new Float32Array(wasm.HEAPF32.buffer, h.settings() >>> 0, jobs.bodyLookAt.floats),
    run: (h) => h.reset(scratch([]), 0, 0, 0),
    // The name errors use: C++ and JS call both spine settle-time ends spine.settleTime.
    errorName: (name) => name.replace(/^spine\.(head|pelvis)SettleTime$/, 'spine.settleTime'),
  },
  tentacle2d: {
    js: (o) => new ikpd.Tentacle2D({ lengths: [1], ...o }),
    native: () => wasm.Tentacle2D.create(),
    buffer: (h) => new Float64Array(wasm.HEAPF64.buffer, h.settings() >>> 0, jobs.tentacle2d.floats),
    run: (h) => h.reset(scratch([1]), 1, 0),
  },
};

describe('described option ranges of PD, LookAt and Tentacle2D equal the C++ ranges', () => {
  for (const [job, { js, native, buffer, run, errorName = (name) => name }] of Object.entries(SETTINGS)) {
    const layout = jobs[job];
    const numbers = layout.fields.filter((f) => f.range);
    function nativeVerdict(f, value) {
      const handle = native();
      try {
        const s = buffer(handle);
        layout.pack({}, s);
        s[f.offset] = value;
        if (f.kind === 'optionalNumber') s[f.offset + 1] = 1;
        const error = run(handle);
        return error ? wasm.UTF8ToString(error >>> 0) : null;
      } finally {
        handle.delete();
      }
    }

    it(`${job}: every number option carries a range`, () => {
      expect(numbers.length).toBeGreaterThan(0);
      for (const f of layout.fields) if (['number', 'double', 'integer', 'optionalNumber'].includes(f.kind)) expect(f.range, f.name).toBeDefined();
    });

    for (const f of numbers) {
      it(`${job}.${f.name}: ${JSON.stringify(f.range)}`, () => {
        const double = f.kind !== 'number';
        const named = new RegExp(`^${errorName(f.name).replace('.', '\\.')}: `);
        for (const value of outside(f.range, f.kind === 'integer', double)) {
          const call = () => js({ [f.name]: value }).dispose();
          expect(call, `JS ${f.name} = ${value}`).toThrow(RangeError);
          expect(call, `JS ${f.name} = ${value}`).toThrow(named);
          // C++ has no range for an unsigned count beyond its type (the packed value is clamped).
          if (f.name !== 'escapeAfter') expect(nativeVerdict(f, value), `C++ ${f.name} = ${value}`).toMatch(named);
        }
        for (const value of bounds(f.range)) {
          expect(() => js({ [f.name]: value }).dispose(), `JS ${f.name} = ${value}`).not.toThrow();
          expect(nativeVerdict(f, value), `C++ ${f.name} = ${value}`).toBeNull();
        }
      });
    }
  }

  it('damping presets come from C++', () => {
    expect(jobs.pd.byName.damping.presets).toEqual({ critical: 1, responsive: Math.SQRT1_2, over: 1.5 });
    expect(jobs.lookAt.byName.damping.presets).toEqual(jobs.pd.byName.damping.presets);
    expect(() => new ikpd.PD({ damping: 'soft' })).toThrow(/^damping: /);
    expect(() => new ikpd.LookAt({ weights: [1], damping: 'soft' })).toThrow(/^damping: /);
  });
});

// Batches pack their shared options with the single call's description, so
// every described number they share is checked by the same range.
describe('batches check shared options by the single call descriptions', () => {
  // (The aim batch shares no number: its only one, weight, is per item.)
  for (const [job, Batch] of [['twoBone', 'TwoBoneBatch'], ['pseudoThreeBone', 'PseudoThreeBoneBatch']]) {
    it(`${Batch}`, () => {
      const batch = new ikpd[Batch](2);
      const shared = jobs[job].options.filter((f) => f.range && f.name !== 'weight'); // weight is per item
      expect(shared.length).toBeGreaterThan(0);
      for (const f of shared) {
        for (const value of outside(f.range, f.kind === 'integer')) {
          expect(() => batch.setOptions({ [f.name]: value }), `${f.name} = ${value}`).toThrow(new RegExp(`^${f.name}: `));
        }
        for (const value of bounds(f.range)) {
          const options = { [f.name]: value };
          if (f.name === 'minAngle') options.maxAngle = Math.PI;
          expect(() => batch.setOptions(options), `${f.name} = ${value}`).not.toThrow();
        }
      }
      batch.dispose();
    });
  }
});
