// API module 'hdr' (see web/types/hdr/hdr.d.ts): HDR output transforms (docs/hdr/hdr.md),
// members of `ikpd.hdr`. Every transform takes a number (per-channel curves),
// an `[r, g, b]` array (or typed array of 3), or a pixel buffer `{ data: Float32Array, channels }`
// transformed in place — without copies when `data` lies in WASM memory
// (HdrBuffer from createBuffer()), else copied through WASM in chunks.
import { WasmObject, created } from '../core.js';
import { describe, readEnum, readNumber, readOptions } from '../readers.js';
import { checkOptionNames, nameSet } from '../options.js';
import { HDR_DEFAULTS, SDR_FILMIC, hdrFilmicCoefficients } from './hdrConstants.js';

export { SDR_FILMIC, HDR_DEFAULTS, REC709_TO_REC2020, REC2020_TO_REC709, PQ, hdrFilmicCoefficients } from './hdrConstants.js';

// Operation indices of ikpd::hdr::Operation.
const OP = {
  filmic: 0, hdrCurve: 1, toneMapHDR: 2, gammaEncode: 3, gammaDecode: 4, srgbEncode: 5, srgbDecode: 6,
  rec709ToRec2020: 7, rec2020ToRec709: 8, expandGamut: 9, normalizePaperWhite: 10, linearToPQ: 11,
  pqToLinear: 12, outputTransform: 13,
};
const COLOR_OPS = /* @__PURE__ */ new Set([OP.rec709ToRec2020, OP.rec2020ToRec709, OP.expandGamut, OP.outputTransform]);
const INPUTS = ['scene', 'display'];
const ENCODINGS = ['pq', 'extended'];
const CHANNELS = [1, 3, 4];
// Option names of each entry point that takes options (checkOptionNames).
const SETTINGS_NAMES = nameSet('paperWhite', 'peak', 'saturation', 'input', 'encoding');
const TONE_CURVE_NAMES = nameSet([...SETTINGS_NAMES], 'count', 'maxInput');
const CALIBRATION_NAMES = nameSet('width', 'height', 'paperWhite', 'peak', 'encoding');
const COEFFICIENT_NAMES = nameSet('a', 'b', 'c', 'd', 'e');

// A finite number that is also finite as float32 (1e39 is not).
function readFloat(value, name) {
  readNumber(value, name);
  if (!Number.isFinite(Math.fround(value))) throw new RangeError(`${name}: must be finite as a 32-bit float, got ${value}`);
  return value;
}

// A value as errors name it; a typed array given as an image says how to wrap it.
function describeImage(value) {
  return ArrayBuffer.isView(value) ? `${describe(value)} (wrap pixels as { data, channels })` : describe(value);
}

/** A pixel buffer in WASM memory; `data` is re-derived after memory growth. */
class HdrBuffer extends WasmObject {
  #core;
  #pointer;
  #length;
  #view = null;
  #viewBuffer = null;

  // `storage`: the Embind HdrStorage that owns the pixels (cpp/bindings/hdr/hdr.cc).
  constructor(core, storage, pointer, pixelCount, channels) {
    super('HdrBuffer', () => storage.delete());
    this.#core = core;
    this.#pointer = pointer;
    this.#length = pixelCount * channels;
    this.pixelCount = pixelCount;
    this.channels = channels;
    Object.freeze(this);
  }

  /** Float32Array over the pixels in WASM memory (interleaved, `channels` floats per pixel). */
  get data() {
    this.assertAlive();
    const buffer = this.#core.heapF32.buffer;
    if (buffer !== this.#viewBuffer) {
      this.#viewBuffer = buffer;
      this.#view = new Float32Array(buffer, this.#pointer, this.#length);
    }
    return this.#view;
  }
}

export function createHdrApi(core) {
  const { wasm } = core;
  // The Embind function, taken on the first call (its area is bound then: Core.area).
  let hdrApply = null;

  // Runs op over `count` pixels at byte offset `pointer`; run = false only validates.
  function call(pointer, count, channels, op, p, run) {
    const f = p.filmic ?? SDR_FILMIC;
    const s = p.settings ?? HDR_DEFAULTS;
    return (hdrApply ??= core.area('hdr').hdrApply)(pointer, count, channels, op, p.parameter ?? 1,
      f.a, f.b, f.c, f.d, f.e, s.paperWhite, s.peak, s.saturation, s.input ?? 0, s.encoding ?? 0, run ? 1 : 0);
  }

  function readBuffer(value, name) {
    const { data, channels } = value;
    if (value instanceof HdrBuffer) value.assertAlive();
    if (!(data instanceof Float32Array)) {
      throw new TypeError(`${name}.data: expected a Float32Array, got ${describeImage(data)}`);
    }
    readEnum(channels, `${name}.channels`, CHANNELS);
    if (data.length % channels !== 0) {
      throw new RangeError(`${name}.data: length ${data.length} is not a multiple of channels (${channels})`);
    }
    return { data, channels, count: data.length / channels };
  }

  function applyBuffer(value, name, op, params) {
    const { data, channels, count } = readBuffer(value, name);
    // C++ names the buffer "pixels"; name it as the caller passed it.
    const check = (result) => {
      if (result) throw new RangeError(wasm.UTF8ToString(result >>> 0).replace(/^pixels:/, `${name}.data:`));
    };
    if (data.buffer === core.heapF32.buffer) {
      // Already in WASM memory: in place, no copies.
      check(call(data.byteOffset, count, channels, op, params, true));
      return value;
    }
    // Copied through the scratch buffer: validate every chunk, then transform.
    const chunk = Math.floor(core.scratchFloats / channels);
    for (const run of [false, true]) {
      for (let first = 0; first < count; first += chunk) {
        const n = Math.min(chunk, count - first);
        const part = data.subarray(first * channels, (first + n) * channels);
        const scratch = core.scratch;
        scratch.set(part);
        check(call(core.scratchPointer, n, channels, op, params, run));
        if (run) part.set(scratch.subarray(0, part.length));
      }
      if (count === 0) check(call(0, 0, channels, op, params, run));
    }
    return value;
  }

  // number → number, [r, g, b] → new array, pixel buffer → itself (in place).
  function apply(value, name, op, params) {
    if (typeof value === 'number') {
      if (COLOR_OPS.has(op)) throw new TypeError(`${name}: expected [r, g, b] or a pixel buffer { data, channels }, got a number`);
      readFloat(value, name);
      core.scratch[0] = value;
      core.check(call(core.scratchPointer, 1, 1, op, params, true));
      return core.scratch[0];
    }
    if (Array.isArray(value) || (ArrayBuffer.isView(value) && !(value instanceof DataView))) {
      if (value.length !== 3) throw new TypeError(`${name}: expected [r, g, b] or a pixel buffer { data, channels }, got ${describeImage(value)}`);
      core.fillScratch((s) => {
        for (let i = 0; i < 3; i++) s[i] = readFloat(value[i], `${name}[${i}]`);
      });
      core.check(call(core.scratchPointer, 1, 3, op, params, true));
      const scratch = core.scratch;
      return [scratch[0], scratch[1], scratch[2]];
    }
    if (value !== null && typeof value === 'object' && 'data' in value && 'channels' in value) {
      return applyBuffer(value, name, op, params);
    }
    const expected = COLOR_OPS.has(op) ? '[r, g, b]' : 'a number, [r, g, b]';
    throw new TypeError(`${name}: expected ${expected} or a pixel buffer { data, channels }, got ${describeImage(value)}`);
  }

  function readCoefficients(coefficients) {
    if (coefficients === undefined) return SDR_FILMIC;
    checkOptionNames(readOptions(coefficients, 'coefficients'), COEFFICIENT_NAMES, 'filmic', 'coefficients.');
    const out = {};
    for (const key of ['a', 'b', 'c', 'd', 'e']) out[key] = readFloat(coefficients[key] ?? SDR_FILMIC[key], key);
    return out;
  }

  function readSettings(options, names = SETTINGS_NAMES, where = 'outputTransform') {
    checkOptionNames(readOptions(options), names, where);
    const {
      paperWhite = HDR_DEFAULTS.paperWhite, peak = HDR_DEFAULTS.peak, saturation = HDR_DEFAULTS.saturation,
      input = 'scene', encoding = 'pq',
    } = options;
    return {
      paperWhite: readFloat(paperWhite, 'paperWhite'),
      peak: readFloat(peak, 'peak'),
      saturation: readFloat(saturation, 'saturation'),
      input: readEnum(input, 'input', INPUTS),
      encoding: readEnum(encoding, 'encoding', ENCODINGS),
    };
  }

  const param = (value, name) => ({ parameter: readFloat(value, name) });

  function createBuffer(pixelCount, channels = 4) {
    readNumber(pixelCount, 'pixelCount', { min: 1, max: 2 ** 28, integer: true });
    readEnum(channels, 'channels', CHANNELS);
    const storage = created(core.area('hdr').HdrStorage.create(pixelCount * channels), 'pixelCount');
    const pointer = storage.pointer();
    if (!pointer) {
      storage.delete();
      throw new RangeError(`pixelCount: out of WASM memory for ${pixelCount} pixels`);
    }
    return new HdrBuffer(core, storage, pointer, pixelCount, channels);
  }

  const api = {
    SDR_FILMIC,
    HDR_DEFAULTS,
    hdrFilmicCoefficients,
    createBuffer,
    filmic: (x, coefficients) => apply(x, 'x', OP.filmic, { filmic: readCoefficients(coefficients) }),
    hdrCurve: (x, peak) => apply(x, 'x', OP.hdrCurve, param(peak, 'peak')),
    toneMapHDR: (x, maxNit) => apply(x, 'x', OP.toneMapHDR, param(maxNit, 'maxNit')),
    gammaEncode: (x) => apply(x, 'x', OP.gammaEncode, {}),
    gammaDecode: (x) => apply(x, 'x', OP.gammaDecode, {}),
    srgbEncode: (x) => apply(x, 'x', OP.srgbEncode, {}),
    srgbDecode: (x) => apply(x, 'x', OP.srgbDecode, {}),
    rec709ToRec2020: (rgb) => apply(rgb, 'rgb', OP.rec709ToRec2020, {}),
    rec2020ToRec709: (rgb) => apply(rgb, 'rgb', OP.rec2020ToRec709, {}),
    expandGamut: (rgb, saturation) => apply(rgb, 'rgb', OP.expandGamut, param(saturation, 'saturation')),
    normalizePaperWhite: (x, paperWhite) => apply(x, 'x', OP.normalizePaperWhite, param(paperWhite, 'paperWhite')),
    linearToPQ: (y) => apply(y, 'y', OP.linearToPQ, {}),
    pqToLinear: (e) => apply(e, 'e', OP.pqToLinear, {}),
    outputTransform: (rgb, options = {}) => apply(rgb, 'rgb', OP.outputTransform, { settings: readSettings(options) }),

    sampleToneCurves(options = {}) {
      checkOptionNames(readOptions(options), TONE_CURVE_NAMES, 'sampleToneCurves');
      const { count = 256, maxInput = 16 } = options;
      readNumber(count, 'count', { min: 2, max: 1 << 20, integer: true });
      readNumber(maxInput, 'maxInput', { min: 1e-30, max: 1e30 });
      const settings = readSettings({ ...options, input: 'scene', encoding: 'extended', saturation: 0 }, TONE_CURVE_NAMES, 'sampleToneCurves');
      // Validate the settings once (C++ is the source of truth for ranges).
      core.check(call(0, 0, 3, OP.outputTransform, { settings }, false));
      const input = new Float32Array(count);
      for (let i = 0; i < count; i++) input[i] = (maxInput * i) / (count - 1);
      const sdr = apply({ data: input.slice(), channels: 1 }, 'x', OP.filmic, {}).data;
      const hdr = apply({ data: input.slice(), channels: 1 }, 'x', OP.hdrCurve,
        { parameter: settings.peak / settings.paperWhite }).data;
      const gray = new Float32Array(count * 3);
      for (let i = 0; i < count; i++) gray.fill(input[i], 3 * i, 3 * i + 3);
      apply({ data: gray, channels: 3 }, 'x', OP.outputTransform, { settings });
      const output = new Float32Array(count);
      for (let i = 0; i < count; i++) output[i] = gray[3 * i];
      return { input, sdr, hdr, output, paperWhite: settings.paperWhite, peak: settings.peak };
    },

    calibrationImage(options = {}) {
      checkOptionNames(readOptions(options), CALIBRATION_NAMES, 'calibrationImage');
      const {
        width = 256, height = 128, paperWhite = HDR_DEFAULTS.paperWhite, peak = HDR_DEFAULTS.peak,
        encoding = 'extended',
      } = options;
      readNumber(width, 'width', { min: 16, max: 4096, integer: true });
      readNumber(height, 'height', { min: 16, max: 4096, integer: true });
      readFloat(paperWhite, 'paperWhite');
      readFloat(peak, 'peak');
      const encodingIndex = readEnum(encoding, 'encoding', ENCODINGS);
      const floats = width * height * 4;
      const storage = created(core.area('hdr').HdrStorage.create(floats), 'width');
      const pointer = storage.pointer();
      if (!pointer) storage.delete();
      if (!pointer) throw new RangeError(`width: out of WASM memory for a ${width}x${height} image`);
      try {
        core.check(core.area('hdr').hdrCalibrationImage(pointer, core.scratchPointer, width, height, paperWhite, peak, encodingIndex));
        const data = core.heapF32.slice(pointer / 4, pointer / 4 + floats);
        const scratch = core.scratch;
        const patches = patchNames().map((name, i) => {
          const f = scratch.subarray(6 * i, 6 * i + 6);
          return { name, x: f[0], y: f[1], width: f[2], height: f[3], nits: f[4], value: f[5] };
        });
        return { width, height, channels: 4, encoding, data, patches };
      } finally {
        storage.delete();
      }
    },
  };

  let names = null;
  const patchNames = () => (names ??= core.area('hdr').hdrCalibrationPatchNames().split(','));

  return api;
}
