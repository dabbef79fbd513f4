// Typings for the 'hdr' API module (`ikpd.hdr`, docs/hdr/hdr.md).
import type { Disposable } from '../common.js';

/** An RGB color `[r, g, b]` (a typed array of 3 works too; linear unless a function says otherwise). */
export type RGB = readonly [number, number, number] | ArrayLike<number>;

/**
 * Interleaved float pixels transformed in place: `channels` floats per pixel
 * (1 = scalars, 3 = RGB, 4 = RGBA with alpha untouched). When `data` is a view
 * of WASM memory (an {@link HdrBuffer}) nothing is copied; any other
 * Float32Array is copied through WASM in chunks (all chunks are validated
 * before any value changes).
 */
export interface PixelBuffer {
  readonly data: Float32Array;
  readonly channels: 1 | 3 | 4;
}

/** Pixels in WASM memory, from `ikpd.hdr.createBuffer()`; free with `dispose()`. */
export interface HdrBuffer extends PixelBuffer, Disposable {
  /** View of the pixels in WASM memory; re-read it after WASM memory may have grown (do not cache across calls). */
  readonly data: Float32Array;
  readonly pixelCount: number;
  readonly channels: 1 | 3 | 4;
}

/**
 * Coefficients of the filmic curve f(x) = x(ax+b)/(x(cx+d)+e). Omitted ones
 * default to the SDR curve {@link HdrApi.SDR_FILMIC}. a, b, d ≥ 0; c, e > 0.
 */
export interface FilmicCoefficients {
  a?: number;
  b?: number;
  c?: number;
  d?: number;
  e?: number;
}

/** The three user settings of the HDR output (docs/hdr/hdr.md). */
export interface HdrSettings {
  /** Nits of SDR ("paper") white, in [1, 10000]. Default 250. @default 250 */
  paperWhite?: number;
  /** The display's peak luminance in nits, in [paperWhite, 10000]. Default 1000. @default 1000 */
  peak?: number;
  /** Gamut expansion in [0, 1]: 0 keeps the Rec.709 look, 1 stretches colors to Rec.2020. Default 0. @default 0 */
  saturation?: number;
}

/** Options of {@link HdrApi.outputTransform}. */
export interface OutputTransformOptions extends HdrSettings {
  /**
   * 'scene' (default): linear scene-referred Rec.709; the SDR filmic curve (clamped to [0, 1])
   * and the production HDR tone map ({@link HdrApi.toneMapHDR}) are applied first.
   * 'display': the frame after the UI pass: already tone-mapped, gamma-2.2 encoded values
   * (1.0 = paper white, up to gammaEncode(peak / paperWhite)). Only the output conversion is
   * applied, no tone map: a white UI pixel (1.0) lands at paper white.
   */
  input?: 'scene' | 'display';
  /**
   * 'pq' (default): the HDR10 signal, Rec.2020 primaries, PQ-encoded in [0, 1].
   * 'extended': linear Rec.709 for an extended-range canvas (WebGPU `rgba16float`,
   * toneMapping mode 'extended'): 1.0 = paper white, up to peak / paperWhite;
   * wide-gamut colors (saturation > 0) may have negative components.
   */
  encoding?: 'pq' | 'extended';
}

/** Sampled tone curves for a plot; every curve is relative (1.0 = paper white; × paperWhite for nits). */
export interface ToneCurveSamples {
  /** Linear scene input, evenly spaced in [0, maxInput]. */
  input: Float32Array;
  /** The SDR filmic curve (the SDR curve; converges to a/c ≈ 1.23). */
  sdr: Float32Array;
  /** The HDR filmic variant converging to peak / paperWhite (the HDR curve). */
  hdr: Float32Array;
  /** The active output transform for gray input ('scene' → 'extended'; the gray curve). */
  output: Float32Array;
  paperWhite: number;
  peak: number;
}

/** One gray patch of the calibration image (pixel rectangle, row 0 at the top). */
export interface CalibrationPatch {
  name: 'shadow' | 'midGray' | 'half' | 'paperWhite' | 'ramp0' | 'ramp1' | 'ramp2' | 'ramp3' | 'ramp4' | 'ramp5' | 'peakBackground' | 'peak';
  x: number;
  y: number;
  width: number;
  height: number;
  /** Luminance the patch asks the display for. */
  nits: number;
  /** Its pixel value in the image's encoding. */
  value: number;
}

/** The calibration image: RGBA floats, row 0 at the top (flip rows for a three.js DataTexture, whose row 0 is the bottom). */
export interface CalibrationImage {
  width: number;
  height: number;
  channels: 4;
  encoding: 'pq' | 'extended';
  data: Float32Array;
  patches: CalibrationPatch[];
}

/**
 * HDR output transforms. Per-channel functions take a number, an `[r, g, b]`
 * array (returns a new array) or a {@link PixelBuffer} (transformed in place
 * and returned); color transforms take `[r, g, b]` or a buffer. Invalid
 * settings throw a RangeError naming the parameter.
 */
export interface HdrApi {
  /** The SDR filmic coefficients (docs/hdr/hdr.md) {a: 3, b: 0.03, c: 2.43, d: 0.59, e: 0.14}. */
  readonly SDR_FILMIC: Readonly<Required<FilmicCoefficients>>;
  /** Defaults of the three settings {paperWhite: 250, peak: 1000, saturation: 0}. */
  readonly HDR_DEFAULTS: Readonly<Required<HdrSettings>>;
  /** Coefficients of the HDR variant: a = 3, b = 0.03, c = a / peak, d = 1, e = 0.14. */
  hdrFilmicCoefficients(peak: number): Required<FilmicCoefficients>;

  /** Allocates `pixelCount` pixels of `channels` floats (default 4, RGBA) in WASM memory, zero-filled. */
  createBuffer(pixelCount: number, channels?: 1 | 3 | 4): HdrBuffer;

  /** Filmic curve x(ax+b)/(x(cx+d)+e), default SDR coefficients; x < 0 counts as 0; bounded by a/c when b·c ≤ a·d (as the defaults). */
  filmic<T extends number | RGB | PixelBuffer>(x: T, coefficients?: FilmicCoefficients): T extends number ? number : T extends PixelBuffer ? T : [number, number, number];
  /** The HDR filmic variant converging to `peak` (relative, 1.0 = SDR white; > 0). */
  hdrCurve<T extends number | RGB | PixelBuffer>(x: T, peak: number): T extends number ? number : T extends PixelBuffer ? T : [number, number, number];
  /**
   * The production HDR tone map (docs/hdr/hdr.md) on display (gamma 2.2) values after the
   * SDR tone map: equal to x in the darks, gammaEncode(maxNit) at x = 1 (linear maxNit).
   * `maxNit` ≥ 1 is the peak relative to paper white (outputTransform uses peak / paperWhite).
   */
  toneMapHDR<T extends number | RGB | PixelBuffer>(x: T, maxNit: number): T extends number ? number : T extends PixelBuffer ? T : [number, number, number];
  /** sign(x)·|x|^(1/2.2) (the "sRGB" gamma of docs/hdr/hdr.md). */
  gammaEncode<T extends number | RGB | PixelBuffer>(x: T): T extends number ? number : T extends PixelBuffer ? T : [number, number, number];
  /** sign(x)·|x|^2.2. */
  gammaDecode<T extends number | RGB | PixelBuffer>(x: T): T extends number ? number : T extends PixelBuffer ? T : [number, number, number];
  /** Piecewise sRGB OETF, extended (odd for negatives, unbounded above 1). */
  srgbEncode<T extends number | RGB | PixelBuffer>(x: T): T extends number ? number : T extends PixelBuffer ? T : [number, number, number];
  /** Piecewise sRGB EOTF, extended. */
  srgbDecode<T extends number | RGB | PixelBuffer>(x: T): T extends number ? number : T extends PixelBuffer ? T : [number, number, number];
  /** Linear Rec.709 → Rec.2020 (white preserved). */
  rec709ToRec2020<T extends RGB | PixelBuffer>(rgb: T): T extends PixelBuffer ? T : [number, number, number];
  /** Linear Rec.2020 → Rec.709 (exact inverse). */
  rec2020ToRec709<T extends RGB | PixelBuffer>(rgb: T): T extends PixelBuffer ? T : [number, number, number];
  /** lerp(rec709ToRec2020(rgb), rgb, saturation): a Rec.2020 color; saturation in [0, 1]. */
  expandGamut<T extends RGB | PixelBuffer>(rgb: T, saturation: number): T extends PixelBuffer ? T : [number, number, number];
  /** x · max(paperWhite, 1) / 10000: relative → PQ's Y (paperWhite in [1, 10000]). */
  normalizePaperWhite<T extends number | RGB | PixelBuffer>(x: T, paperWhite: number): T extends number ? number : T extends PixelBuffer ? T : [number, number, number];
  /** SMPTE ST 2084 (PQ) encode of Y = nits / 10000, clamped to [0, 1]. 0 → 7.3e-7, 0.01 → 0.5081, 1 → 1. */
  linearToPQ<T extends number | RGB | PixelBuffer>(y: T): T extends number ? number : T extends PixelBuffer ? T : [number, number, number];
  /** PQ decode of a signal in [0, 1] (clamped) to Y = nits / 10000. */
  pqToLinear<T extends number | RGB | PixelBuffer>(e: T): T extends number ? number : T extends PixelBuffer ? T : [number, number, number];
  /**
   * The HDR output chain (docs/hdr/hdr.md) with the three settings: [scene: SDR filmic]
   * → production tone map (maxNit = peak / paperWhite) → Rec.709→Rec.2020 →
   * saturation lerp → paper white → PQ (or, with encoding 'extended', linear
   * Rec.709 with 1.0 = paper white).
   */
  outputTransform<T extends RGB | PixelBuffer>(rgb: T, options?: OutputTransformOptions): T extends PixelBuffer ? T : [number, number, number];

  /** Samples the SDR, HDR and active output curves for a plot (default count 256, maxInput 16). */
  sampleToneCurves(options?: HdrSettings & { count?: number; maxInput?: number }): ToneCurveSamples;
  /**
   * Data of a calibration image on black (defaults 256×128, 'extended'): gray
   * patches at 5/18/50/100 % of paper white (set paper white until "paperWhite"
   * looks like white paper), six steps from paper white to peak, and "peak"
   * inside a 10000-nit "peakBackground" (raise peak until the inner square just disappears).
   */
  calibrationImage(options?: { width?: number; height?: number; paperWhite?: number; peak?: number; encoding?: 'pq' | 'extended' }): CalibrationImage;
}
