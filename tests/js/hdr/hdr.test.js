import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';

const { hdr } = ikpd;

// Independent double-precision references.
const PQ_M1 = 2610 / 16384, PQ_M2 = (2523 / 4096) * 128;
const PQ_C1 = 3424 / 4096, PQ_C2 = (2413 / 4096) * 32, PQ_C3 = (2392 / 4096) * 32;
const pqRef = (y) => {
  const p = y ** PQ_M1;
  return ((PQ_C1 + PQ_C2 * p) / (1 + PQ_C3 * p)) ** PQ_M2;
};
const filmicRef = (x, { a, b, c, d, e }) => (x * (a * x + b)) / (x * (c * x + d) + e);
const close = (a, b, tol) => Math.abs(a - b) <= tol;

describe('hdr: PQ', () => {
  it('matches reference values computed in double precision', () => {
    expect(hdr.linearToPQ(0)).toBeCloseTo(7.30956e-7, 10);
    expect(hdr.linearToPQ(1 / 10000)).toBeCloseTo(0.1499457321, 6);
    expect(hdr.linearToPQ(100 / 10000)).toBeCloseTo(0.508078421517, 6);
    expect(hdr.linearToPQ(203 / 10000)).toBeCloseTo(0.580688881042, 6);
    expect(hdr.linearToPQ(1000 / 10000)).toBeCloseTo(0.751827096247, 6);
    expect(hdr.linearToPQ(1)).toBeCloseTo(1, 7);
    fc.assert(fc.property(fc.double({ min: 1e-7, max: 1, noNaN: true }), (y) => {
      const yf = Math.fround(y);
      return close(hdr.linearToPQ(yf), pqRef(yf), 1e-6);
    }), { numRuns: 2000 });
  });

  it('encode ∘ decode is the identity to 1e-6 over [0, 1]', () => {
    const buffer = hdr.createBuffer(10001, 1);
    const data = buffer.data;
    for (let i = 0; i <= 10000; i++) data[i] = i / 10000;
    const expected = data.slice();
    hdr.linearToPQ(hdr.pqToLinear(buffer));
    for (let i = 0; i <= 10000; i++) expect(Math.abs(buffer.data[i] - expected[i])).toBeLessThanOrEqual(1e-6);
    for (let i = 0; i <= 10000; i++) buffer.data[i] = (i / 10000) ** 3;
    const ys = buffer.data.slice();
    hdr.pqToLinear(hdr.linearToPQ(buffer));
    for (let i = 0; i <= 10000; i++) expect(Math.abs(buffer.data[i] - ys[i])).toBeLessThanOrEqual(1e-6);
    buffer.dispose();
  });
});

describe('hdr: Rec.709 ↔ Rec.2020', () => {
  it('preserves white (rows sum to 1) and agrees with BT.2087 to ~1e-6', () => {
    const white = hdr.rec709ToRec2020([1, 1, 1]);
    white.forEach((v) => expect(v).toBeCloseTo(1, 6));
    const bt2087 = [[0.6274038959, 0.3292830384, 0.0433130657], [0.0690972894, 0.9195403951, 0.0113623156],
      [0.0163914389, 0.0880133079, 0.8955952532]];
    for (let c = 0; c < 3; c++) {
      const column = hdr.rec709ToRec2020([0, 1, 2].map((k) => (k === c ? 1 : 0)));
      for (let r = 0; r < 3; r++) expect(Math.abs(column[r] - bt2087[r][c])).toBeLessThan(1.5e-6);
    }
  });

  it('the inverse round-trips to 1e-6', () => {
    fc.assert(fc.property(fc.array(fc.double({ min: -1, max: 20, noNaN: true }), { minLength: 3, maxLength: 3 }), (rgb) => {
      const back = hdr.rec2020ToRec709(hdr.rec709ToRec2020(rgb));
      const scale = Math.max(1, ...rgb.map(Math.abs));
      return back.every((v, i) => close(v, Math.fround(rgb[i]), 1e-6 * scale));
    }), { numRuns: 2000 });
  });
});

describe('hdr: curves', () => {
  it('filmic uses the reference SDR coefficients (docs/hdr/hdr.md) and converges to a/c', () => {
    expect(hdr.SDR_FILMIC).toEqual({ a: 3, b: 0.03, c: 2.43, d: 0.59, e: 0.14 });
    for (const x of [0, 0.01, 0.18, 1, 2, 10]) expect(hdr.filmic(x)).toBeCloseTo(filmicRef(x, hdr.SDR_FILMIC), 6);
    expect(hdr.filmic(1e30)).toBeCloseTo(3 / 2.43, 6);
    expect(hdr.filmic(-3)).toBe(0);
    const k = { a: 2, b: 0.1, c: 1, d: 0.5, e: 0.2 };
    expect(hdr.filmic(0.7, k)).toBeCloseTo(filmicRef(0.7, k), 6);
    expect(hdr.filmic(1e30, { c: 1.5 })).toBeCloseTo(2, 6);
  });

  it('the HDR variant converges to the peak and is monotone on [0, 1e4]', () => {
    for (const peak of [1.5, 4, 10, 40]) {
      expect(hdr.hdrFilmicCoefficients(peak).c).toBeCloseTo(3 / peak, 12);
      expect(hdr.hdrCurve(1e8, peak)).toBeCloseTo(peak, 4);
      const xs = new Float32Array(20001);
      for (let i = 0; i <= 20000; i++) xs[i] = i < 10000 ? i / 5000 : 2 * 5000 ** ((i - 10000) / 10000);
      const ys = hdr.hdrCurve({ data: xs.slice(), channels: 1 }, peak).data;
      const sdr = hdr.filmic({ data: xs.slice(), channels: 1 }).data;
      for (let i = 1; i <= 20000; i++) {
        expect(ys[i]).toBeGreaterThanOrEqual(ys[i - 1]);
        expect(sdr[i]).toBeGreaterThanOrEqual(sdr[i - 1]);
      }
      expect(ys[20000]).toBeLessThan(peak);
    }
  });

  it('production tone map equals the input in the darks and reaches maxNit at 1', () => {
    fc.assert(fc.property(fc.double({ min: 0, max: 0.4999, noNaN: true }), fc.double({ min: 1, max: 100, noNaN: true }),
      (x, maxNit) => close(hdr.toneMapHDR(x, maxNit), x, 1e-3)), { numRuns: 3000 });
    for (const maxNit of [1, 2, 4, 16]) {
      expect(hdr.gammaDecode(hdr.toneMapHDR(1, maxNit))).toBeCloseTo(maxNit, 4);
      const [r, g, b] = hdr.toneMapHDR([1, 0.2, 0], maxNit);
      expect(r).toBeCloseTo(maxNit ** (1 / 2.2), 5);
      expect(g).toBeCloseTo(0.2, 5);
      expect(b).toBe(0);
    }
  });

  it('gamma, sRGB and paper white', () => {
    expect(hdr.srgbEncode(0.5)).toBeCloseTo(0.735357, 6);
    expect(hdr.srgbEncode(4)).toBeCloseTo(1.825, 3);
    expect(hdr.srgbDecode(hdr.srgbEncode(-0.3))).toBeCloseTo(-0.3, 6);
    expect(hdr.gammaEncode(0.25)).toBeCloseTo(0.25 ** (1 / 2.2), 6);
    const decoded = hdr.gammaDecode([0.5, 1, 0]);
    expect(decoded[0]).toBeCloseTo(0.5 ** 2.2, 6);
    expect(decoded.slice(1)).toEqual([1, 0]);
    expect(hdr.normalizePaperWhite(1, 250)).toBeCloseTo(0.025, 8);
    expect(hdr.expandGamut([0.3, 0.3, 0.3], 0.7).map((v) => v.toFixed(5))).toEqual(['0.30000', '0.30000', '0.30000']);
    expect(hdr.expandGamut([1, 0, 0], 1)[0]).toBeCloseTo(1, 6);
    expect(hdr.expandGamut([1, 0, 0], 0)[0]).toBeCloseTo(0.627404, 6);
  });
});

describe('hdr: outputTransform', () => {
  it('chains the reference order with the three settings', () => {
    const pw = 200, peak = 800;
    // After the UI pass nothing is tone-mapped again: a white UI pixel is paper white,
    // the tone-mapped highlight gammaEncode(peak / paperWhite) the peak.
    const white = hdr.outputTransform([1, 1, 1], { paperWhite: pw, peak, input: 'display' });
    white.forEach((v) => expect(v).toBeCloseTo(pqRef(pw / 10000), 5));
    const highlight = hdr.outputTransform(hdr.toneMapHDR([1, 1, 1], peak / pw), { paperWhite: pw, peak, input: 'display' });
    highlight.forEach((v) => expect(v).toBeCloseTo(pqRef(peak / 10000), 5));
    const dark = hdr.outputTransform([0.3, 0.3, 0.3], { paperWhite: pw, peak, input: 'display' });
    expect(dark[0]).toBeCloseTo(pqRef((0.3 ** 2.2 * pw) / 10000), 5);
    // The same chain built from the single steps.
    fc.assert(fc.property(fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 3, maxLength: 3 }),
      fc.double({ min: 0, max: 1, noNaN: true }), (rgb, saturation) => {
        const lin = hdr.gammaDecode(rgb);
        const wide = hdr.expandGamut(lin, saturation);
        const expected = hdr.linearToPQ(hdr.normalizePaperWhite(wide, pw));
        const actual = hdr.outputTransform(rgb, { paperWhite: pw, peak, saturation, input: 'display' });
        return actual.every((v, i) => close(v, expected[i], 1e-5));
      }), { numRuns: 500 });
    const extended = hdr.outputTransform([100, 100, 100], { paperWhite: pw, peak, encoding: 'extended' });
    extended.forEach((v) => expect(v).toBeCloseTo(peak / pw, 5));
  });

  it('uses the defaults paperWhite 250, peak 1000, saturation 0, scene → pq', () => {
    expect(hdr.HDR_DEFAULTS).toEqual({ paperWhite: 250, peak: 1000, saturation: 0 });
    expect(hdr.outputTransform([0.5, 0.2, 0.1])).toEqual(hdr.outputTransform([0.5, 0.2, 0.1],
      { paperWhite: 250, peak: 1000, saturation: 0, input: 'scene', encoding: 'pq' }));
    expect(hdr.outputTransform([1e6, 1e6, 1e6])[1]).toBeCloseTo(pqRef(0.1), 5);
  });

  it('rejects bad settings with clear errors', () => {
    const rgb = [0.5, 0.5, 0.5];
    for (const paperWhite of [0, -10, 0.5, 20000]) {
      expect(() => hdr.outputTransform(rgb, { paperWhite })).toThrow(/^paperWhite: /);
    }
    expect(() => hdr.outputTransform(rgb, { paperWhite: NaN })).toThrow(/^paperWhite: must be finite/);
    expect(() => hdr.outputTransform(rgb, { paperWhite: 300, peak: 200 })).toThrow(/^peak: .*paperWhite/);
    expect(() => hdr.outputTransform(rgb, { peak: 20000 })).toThrow(/^peak: /);
    expect(() => hdr.outputTransform(rgb, { saturation: -0.1 })).toThrow(/^saturation: must be in \[0, 1\]/);
    expect(() => hdr.outputTransform(rgb, { saturation: 1.5 })).toThrow(/^saturation: /);
    expect(() => hdr.outputTransform(rgb, { encoding: 'hlg' })).toThrow(/^encoding: /);
    expect(() => hdr.outputTransform(rgb, { input: 'raw' })).toThrow(/^input: /);
    expect(() => hdr.outputTransform([1, NaN, 0])).toThrow(/^rgb\[1\]: /);
    expect(() => hdr.outputTransform(0.5)).toThrow(TypeError);
    expect(() => hdr.outputTransform(new Float32Array(12))).toThrow(/wrap pixels as \{ data, channels \}/);
    expect(hdr.outputTransform(new Float32Array([0.5, 0.2, 0.1]))).toEqual(hdr.outputTransform([0.5, 0.2, 0.1]));
    expect(() => hdr.toneMapHDR(0.5, 0.5)).toThrow(/^maxNit: /);
    expect(() => hdr.hdrCurve(0.5, 0)).toThrow(/^peak: /);
    expect(() => hdr.filmic(0.5, { e: 0 })).toThrow(/^e: /);
    expect(() => hdr.expandGamut([1, 0, 0], 2)).toThrow(/^saturation: /);
  });
});

describe('hdr: buffers', () => {
  it('WASM buffers work in place without copies and survive memory growth', () => {
    const buffer = hdr.createBuffer(4, 4);
    expect(buffer.pixelCount).toBe(4);
    expect(buffer.channels).toBe(4);
    expect(buffer.data.length).toBe(16);
    expect(Array.from(buffer.data)).toEqual(new Array(16).fill(0));
        buffer.data.set([0.5, 0.5, 0.5, 0.25, 1, 0, 0, 0.5, 0, 0, 0, 1, 2, 2, 2, 0]);
    const same = hdr.outputTransform(buffer, { encoding: 'extended', input: 'display' });
    expect(same).toBe(buffer);
    expect(buffer.data[3]).toBe(0.25); // alpha untouched
    expect(buffer.data[0]).toBeCloseTo(hdr.outputTransform([0.5, 0.5, 0.5], { encoding: 'extended', input: 'display' })[0], 6);
    // Grow WASM memory; the view is re-derived.
    const big = hdr.createBuffer(8 << 20, 4);
    expect(buffer.data.length).toBe(16);
    expect(buffer.data[3]).toBe(0.25);
    big.dispose();
    buffer.dispose();
    expect(buffer.disposed).toBe(true);
    expect(() => buffer.data).toThrow(/used after dispose/);
    expect(() => hdr.filmic(buffer)).toThrow(/used after dispose/);
  });

  it('ordinary Float32Arrays are copied through WASM in chunks and equal the single-color results', () => {
    const count = 5000; // several scratch chunks
    for (const channels of [3, 4]) {
      const data = new Float32Array(count * channels);
      for (let i = 0; i < data.length; i++) data[i] = ((i * 7919) % 1000) / 250;
      const original = data.slice();
      hdr.outputTransform({ data, channels }, { saturation: 0.5 });
      for (const p of [0, 1, 1234, 4999]) {
        const rgb = Array.from(original.subarray(p * channels, p * channels + 3));
        const expected = hdr.outputTransform(rgb, { saturation: 0.5 });
        for (let k = 0; k < 3; k++) expect(data[p * channels + k]).toBe(expected[k]);
        if (channels === 4) expect(data[p * channels + 3]).toBe(original[p * channels + 3]);
      }
    }
  });

  it('a NaN anywhere leaves the whole buffer untouched', () => {
    const data = new Float32Array(4 * 3000).fill(0.5);
    data[4 * 2900 + 1] = NaN;
    expect(() => hdr.gammaEncode({ data, channels: 4 })).toThrow(/^x\.data: must be finite/);
    const wasmBuffer = hdr.createBuffer(2, 3);
    wasmBuffer.data.set([1, 2, 3, 4, Infinity, 6]);
    expect(() => hdr.outputTransform(wasmBuffer)).toThrow(/^rgb\.data: must be finite/);
    expect(wasmBuffer.data[0]).toBe(1);
    wasmBuffer.dispose();
    expect(() => hdr.linearToPQ(1e39)).toThrow(/^y: must be finite as a 32-bit float/);
    expect(() => hdr.outputTransform([1, 1, 1], { peak: 1e39 })).toThrow(/^peak: /);
    expect(data[0]).toBe(0.5);
    expect(() => hdr.gammaEncode({ data, channels: 2 })).toThrow(/^x\.channels: /);
    expect(() => hdr.gammaEncode({ data: data.subarray(0, 7), channels: 4 })).toThrow(/multiple of channels/);
    expect(() => hdr.rec709ToRec2020({ data, channels: 1 })).toThrow(/^channels: must be 3 or 4/);
    expect(() => hdr.createBuffer(0)).toThrow(/^pixelCount: /);
    expect(() => hdr.createBuffer(4, 2)).toThrow(/^channels: /);
    expect(hdr.filmic({ data: new Float32Array(0), channels: 1 }).data.length).toBe(0);
  });
});

describe('hdr: HdrBuffer memory', () => {
  it('create/dispose cycles leave the WASM heap flat', () => {
    for (let i = 0; i < 100; i++) hdr.createBuffer(1000, 4).dispose();
    const before = ikpd.memoryStats();
    for (let i = 0; i < 20000; i++) {
      const buffer = hdr.createBuffer(1 + (i % 500), i % 2 ? 3 : 4);
      if (i % 1000 === 0) hdr.filmic(buffer);
      buffer.dispose();
    }
    for (let i = 0; i < 50; i++) hdr.calibrationImage({ width: 64, height: 32 });
    expect(ikpd.memoryStats()).toEqual(before);
  });
});

describe('hdr: calibration and curve sampling', () => {
  it('calibration image patches carry the settings', () => {
    const image = hdr.calibrationImage({ width: 256, height: 128, paperWhite: 200, peak: 1600 });
    expect(image.data.length).toBe(256 * 128 * 4);
    const byName = Object.fromEntries(image.patches.map((p) => [p.name, p]));
    expect(Object.keys(byName)).toEqual(['shadow', 'midGray', 'half', 'paperWhite', 'ramp0', 'ramp1', 'ramp2',
      'ramp3', 'ramp4', 'ramp5', 'peakBackground', 'peak']);
    expect(byName.paperWhite.value).toBe(1);
    expect(byName.peak.value).toBe(8);
    expect(byName.peakBackground.value).toBe(50);
    const at = (p) => image.data[4 * ((p.y + (p.height >> 1)) * image.width + p.x + (p.width >> 1))];
    expect(at(byName.peak)).toBe(8);
    expect(at(byName.midGray)).toBeCloseTo(0.18, 6);
    const pq = hdr.calibrationImage({ encoding: 'pq', peak: 1000 });
    expect(pq.patches.find((p) => p.name === 'peak').value).toBeCloseTo(pqRef(0.1), 6);
    expect(() => hdr.calibrationImage({ peak: 100 })).toThrow(/^peak: /);
    expect(() => hdr.calibrationImage({ width: 4 })).toThrow(/^width: /);
  });

  it('sampleToneCurves gives the reference plot curves and the active output', () => {
    const s = hdr.sampleToneCurves({ paperWhite: 250, peak: 1000, count: 65, maxInput: 8 });
    expect(s.input.length).toBe(65);
    expect(s.input[64]).toBe(8);
    for (let i = 0; i < 65; i++) {
      expect(s.sdr[i]).toBeCloseTo(filmicRef(s.input[i], hdr.SDR_FILMIC), 5);
      expect(s.hdr[i]).toBeCloseTo(hdr.hdrCurve(s.input[i], 4), 6);
      expect(s.output[i]).toBeCloseTo(hdr.outputTransform([s.input[i], s.input[i], s.input[i]], { encoding: 'extended' })[0], 6);
    }
    expect(s.output[64]).toBeCloseTo(4, 5);
    expect(() => hdr.sampleToneCurves({ peak: 10 })).toThrow(/^peak: /);
  });
});
