// Constants of the HDR transforms shared by the WASM wrappers (web/src/hdr/hdr.js)
// and the three.js shader nodes (web/three/hdr/hdr.js). They mirror
// cpp/include/ikpd/hdr/*.h; tests check that both sides agree.

/** The SDR filmic coefficients (docs/hdr/hdr.md) (limit a/c ≈ 1.2346). */
export const SDR_FILMIC = Object.freeze({ a: 3.0, b: 0.03, c: 2.43, d: 0.59, e: 0.14 });

/** Coefficients of the HDR variant converging to `peak` (relative, 1.0 = SDR white). */
export function hdrFilmicCoefficients(peak) {
  // Without this check, 0, undefined or a denormal peak gave c = Infinity or NaN.
  if (typeof peak !== 'number') throw new TypeError(`peak: expected a number, got ${typeof peak}`);
  if (!(peak > 0) || !Number.isFinite(3.0 / peak)) throw new RangeError(`peak: must be a finite number > 0, got ${peak}`);
  return { a: 3.0, b: 0.03, c: 3.0 / peak, d: 1.0, e: 0.14 };
}

/** Rec.709 → Rec.2020 (rows). */
export const REC709_TO_REC2020 = Object.freeze([
  Object.freeze([0.627404, 0.329282, 0.043314]),
  Object.freeze([0.069097, 0.919541, 0.011362]),
  Object.freeze([0.016392, 0.088013, 0.895595]),
]);

/** Its inverse, computed in double precision. */
export const REC2020_TO_REC709 = Object.freeze([
  Object.freeze([1.66049027634, -0.587638454125, -0.0728518222114]),
  Object.freeze([-0.124549807667, 1.13289872084, -0.00834891317722]),
  Object.freeze([-0.0181519039159, -0.100578102354, 1.11873000627]),
]);

/** SMPTE ST 2084 constants. */
export const PQ = Object.freeze({
  m1: 2610 / 16384,
  m2: (2523 / 4096) * 128,
  c1: 3424 / 4096,
  c2: (2413 / 4096) * 32,
  c3: (2392 / 4096) * 32,
});

/** Defaults of the three user settings (nits, nits, 0..1). */
export const HDR_DEFAULTS = Object.freeze({ paperWhite: 250, peak: 1000, saturation: 0 });
