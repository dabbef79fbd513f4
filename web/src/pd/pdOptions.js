// The PD options (docs/pd/pd.md) and the gain/stability helpers. The options are
// packed from their C++ description (cpp/src/pd/fields.h, read by
// web/src/fields.js): defaults, enum names, damping presets and valid ranges
// come from there. Numbers cross through the C++ double buffer `pdBuffer()` (a
// Float64Array over WASM memory, re-derived after growth), so they reach the
// controllers unrounded.
import { fillView } from '../core.js';
import { readEnum, readNumber, readOptions } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';
import { readRanged } from '../fields.js';

/**
 * The PD option plumbing shared by the controllers (web/src/pd/pd.js) and the PD
 * batches (web/src/batch/batch.js).
 */
export function createPdOptions(core) {
  const layout = core.jobs.pd;
  let pointer = 0; // the pd buffer's address, taken on first use (the pd area is bound then: Core.area)
  let view = new Float64Array(0);
  /** Float64Array over the C++ pd buffer (32 doubles); growth detaches (empties) the old view. */
  const io = () => {
    if (view.length === 0) {
      const wasm = core.area('pd');
      pointer ||= wasm.pdBuffer();
      view = new Float64Array(wasm.HEAPF64.buffer, pointer, 32);
    }
    return view;
  };
  const DAMPING = layout.byName.damping;
  const SPRING_NAMES = nameSet('stiffness', 'damping', 'mass');
  const STABILITY_NAMES = nameSet('kp', 'kd', 'dt', 'integrator', 'dtMax');
  const INTEGRATOR = layout.byName.integrator;

  /**
   * Writes `options` (only the names in `allowed`, a Set; omitted ones take
   * their C++ defaults) to the pd buffer; another name is a TypeError naming
   * it (checkOptionNames), `where` the entry point.
   */
  function packOptions(options, allowed, where) {
    readOptions(options, 'options');
    checkOptionNames(options, allowed, where);
    fillView(io, (f) => layout.pack(options, f));
  }

  /** A damping preset name (described in C++) or a ratio → damping ratio ζ; gainsFromSettleTime's C++ checks the range. */
  function readDamping(value, name = 'damping') {
    if (typeof value === 'number') return readNumber(value, name);
    readEnum(value, name, Object.keys(DAMPING.presets));
    return DAMPING.presets[value];
  }

  function gains(kind, a, b, c) {
    core.check(core.area('pd').pdGains(kind, a, b, c));
    const f = io();
    return { kp: f[0], kd: f[1] };
  }

  function gainsFromSettleTime(settleTime, damping = 'critical') {
    return gains(0, readNumber(settleTime, 'settleTime'), readDamping(damping), 0);
  }

  function gainsFromSmoothTime(smoothTime) {
    return gains(1, readNumber(smoothTime, 'smoothTime'), 0, 0);
  }

  function gainsFromHalfLife(halfLife) {
    return gains(2, readNumber(halfLife, 'halfLife'), 0, 0);
  }

  function gainsFromSpring(options) {
    checkOptionNames(readOptions(options, 'options'), SPRING_NAMES, 'gainsFromSpring');
    const { stiffness, damping, mass = 1 } = options;
    return gains(3, readNumber(stiffness, 'stiffness'), readNumber(damping, 'damping'), readNumber(mass, 'mass'));
  }

  function checkStability(options) {
    checkOptionNames(readOptions(options, 'options'), STABILITY_NAMES, 'checkStability');
    const { kp, kd, dt, integrator = layout.defaultValues.integrator, dtMax = layout.defaultValues.dtMax } = options;
    const index = readEnum(integrator, 'integrator', INTEGRATOR.enumNames);
    core.check(core.area('pd').pdStability(index, readNumber(kp, 'kp'), readNumber(kd, 'kd'), readNumber(dt, 'dt'),
      readRanged(dtMax, layout.byName.dtMax)));
    const f = io();
    return { stable: f[0] !== 0, maxStableDt: f[1], spectralRadius: f[2] };
  }

  return {
    io,
    layout,
    packOptions,
    api: { gainsFromSettleTime, gainsFromSmoothTime, gainsFromHalfLife, gainsFromSpring, checkStability },
  };
}
