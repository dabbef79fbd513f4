// ikpd/three — the HDR output transforms of `ikpd.hdr` (docs/hdr/hdr.md) as three.js
// TSL shader nodes, for WebGPURenderer/RenderPipeline output passes. Each
// function takes nodes (or plain numbers) and returns a node of the same
// shape (float or vec3); the math mirrors cpp/src/hdr/ and is checked against
// the WASM build to 1e-4 by tests/browser/hdr-agreement.test.js.
import { CustomToneMapping } from 'three';
import { Fn, abs, clamp, dot, float, max, mix, pow, sign, uniform, vec3 } from 'three/tsl';
import { HDR_DEFAULTS, PQ, REC2020_TO_REC709, REC709_TO_REC2020, SDR_FILMIC } from '../../src/hdr/hdrConstants.js';
import { checkHelperOptions, optionNames } from '../readers.js';

// Option names of the nodes that take options (the one rule: checkHelperOptions).
const COEFFICIENT_NAMES = optionNames('a', 'b', 'c', 'd', 'e');
const UNIFORM_NAMES = optionNames('paperWhite', 'peak', 'saturation');
const SETTINGS_NAMES = optionNames([...UNIFORM_NAMES], 'input', 'encoding');
const TONE_MAPPING_NAMES = optionNames('hdr');

const node = (value) => (typeof value === 'number' ? float(value) : value);
const INV_GAMMA = 1 / 2.2;

function readChoice(value, name, allowed) {
  if (!allowed.includes(value)) {
    throw new RangeError(`${name}: expected one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${String(value)}`);
  }
  return value;
}

/** Filmic curve x(ax+b)/(x(cx+d)+e) (x < 0 counts as 0); coefficients default to the SDR curve. */
export function filmicNode(x, coefficients = {}) {
  checkHelperOptions(coefficients, COEFFICIENT_NAMES, 'filmicNode');
  const { a = SDR_FILMIC.a, b = SDR_FILMIC.b, c = SDR_FILMIC.c, d = SDR_FILMIC.d, e = SDR_FILMIC.e } = coefficients;
  const v = max(node(x), 0.0);
  return v.mul(v.mul(a).add(b)).div(v.mul(v.mul(c).add(d)).add(e));
}

/** The HDR filmic variant converging to `peak` (relative, 1.0 = SDR white): c = 3 / peak, d = 1. */
export function hdrCurveNode(x, peak) {
  return filmicNode(x, { a: 3.0, b: 0.03, c: float(3.0).div(node(peak)), d: 1.0, e: 0.14 });
}

/** The production HDR tone map in the linear domain: lerp(x, x·maxNit, saturate(x^10)), x < 0 counts as 0. */
export function toneMapHDRLinearNode(x, maxNit) {
  const v = max(node(x), 0.0);
  const v2 = v.mul(v);
  const v4 = v2.mul(v2);
  const rate = v4.mul(v4).mul(v2).min(1.0);
  return v.add(v.mul(node(maxNit)).sub(v).mul(rate));
}

/** The production HDR tone map (docs/hdr/hdr.md) on display (gamma 2.2) values: x^2.2 → lerp → ^(1/2.2). */
export function toneMapHDRNode(x, maxNit) {
  return gammaEncodeNode(toneMapHDRLinearNode(gammaDecodeNode(max(node(x), 0.0)), maxNit));
}

/** sign(x)·|x|^(1/2.2). */
export function gammaEncodeNode(x) {
  const v = node(x);
  return sign(v).mul(pow(abs(v), INV_GAMMA));
}

/** sign(x)·|x|^2.2. */
export function gammaDecodeNode(x) {
  const v = node(x);
  return sign(v).mul(pow(abs(v), 2.2));
}

/** Piecewise sRGB OETF, extended (odd for negatives, unbounded above 1). */
export function srgbEncodeNode(x) {
  const v = node(x);
  const a = abs(v);
  const high = pow(a, 1 / 2.4).mul(1.055).sub(0.055);
  return sign(v).mul(mix(high, a.mul(12.92), a.lessThanEqual(0.0031308)));
}

/** Piecewise sRGB EOTF, extended. */
export function srgbDecodeNode(x) {
  const v = node(x);
  const a = abs(v);
  const high = pow(a.add(0.055).div(1.055), 2.4);
  return sign(v).mul(mix(high, a.div(12.92), a.lessThanEqual(0.04045)));
}

const rows = (m) => m.map((r) => vec3(r[0], r[1], r[2]));
const multiply = (m, rgb) => {
  const [r0, r1, r2] = rows(m);
  return vec3(dot(r0, rgb), dot(r1, rgb), dot(r2, rgb));
};

/** Linear Rec.709 → Rec.2020 (docs/hdr/hdr.md). */
export function rec709ToRec2020Node(rgb) {
  return multiply(REC709_TO_REC2020, rgb);
}

/** Linear Rec.2020 → Rec.709 (exact inverse). */
export function rec2020ToRec709Node(rgb) {
  return multiply(REC2020_TO_REC709, rgb);
}

/** lerp(rec709ToRec2020(rgb), rgb, saturation): a Rec.2020 color. */
export function expandGamutNode(rgb, saturation) {
  return mix(rec709ToRec2020Node(rgb), rgb, node(saturation));
}

/** x · max(paperWhite, 1) / 10000. */
export function normalizePaperWhiteNode(x, paperWhite) {
  return node(x).mul(max(node(paperWhite), 1.0).div(10000.0));
}

/** SMPTE ST 2084 (PQ) encode of Y = nits / 10000, clamped to [0, 1]. */
export function linearToPQNode(y) {
  const p = pow(clamp(node(y), 0.0, 1.0), PQ.m1);
  return pow(p.mul(PQ.c2).add(PQ.c1).div(p.mul(PQ.c3).add(1.0)), PQ.m2);
}

/** PQ decode of a signal in [0, 1] (clamped) to Y = nits / 10000. */
export function pqToLinearNode(e) {
  const p = pow(clamp(node(e), 0.0, 1.0), 1 / PQ.m2);
  return pow(max(p.sub(PQ.c1), 0.0).div(p.mul(-PQ.c3).add(PQ.c2)), 1 / PQ.m1);
}

/**
 * The output chain (docs/hdr/hdr.md) (as `ikpd.hdr.outputTransform`) on a vec3 node.
 * `paperWhite`, `peak`, `saturation` are numbers or nodes (uniforms); in the
 * shader they are made safe (paperWhite ≥ 1, peak ≥ paperWhite, saturation
 * in [0, 1]) instead of throwing. `input` and `encoding` pick the graph.
 */
export function outputTransformNode(color, settings = {}) {
  checkHelperOptions(settings, SETTINGS_NAMES, 'outputTransformNode');
  const {
    paperWhite = HDR_DEFAULTS.paperWhite, peak = HDR_DEFAULTS.peak, saturation = HDR_DEFAULTS.saturation,
    input = 'scene', encoding = 'pq',
  } = settings;
  readChoice(input, 'input', ['scene', 'display']);
  readChoice(encoding, 'encoding', ['pq', 'extended']);
  const pw = max(node(paperWhite), 1.0);
  const maxNit = max(node(peak).div(pw), 1.0);
  const s = clamp(node(saturation), 0.0, 1.0);
  const linear = input === 'scene'
    ? toneMapHDRLinearNode(clamp(filmicNode(color), 0.0, 1.0), maxNit)
    : clamp(gammaDecodeNode(node(color)), 0.0, maxNit);
  if (encoding === 'extended') return mix(linear, rec2020ToRec709Node(linear), s);
  return linearToPQNode(normalizePaperWhiteNode(expandGamutNode(linear, s), pw));
}

/** Uniform nodes for the three settings; change `.value` (e.g. from a settings panel) at any time. */
export function createHDRUniforms(settings = {}) {
  checkHelperOptions(settings, UNIFORM_NAMES, 'createHDRUniforms');
  const { paperWhite = HDR_DEFAULTS.paperWhite, peak = HDR_DEFAULTS.peak, saturation = HDR_DEFAULTS.saturation } = settings;
  return { paperWhite: uniform(paperWhite), peak: uniform(peak), saturation: uniform(saturation) };
}

/**
 * A tone-mapping function for `renderer.library.addToneMapping(fn, CustomToneMapping)`
 * (TSL `Fn(([color, exposure]) => …)`): linear scene color × exposure →
 * linear extended Rec.709 with 1.0 = paper white, up to peak / paperWhite
 * (`hdr: true`, for an `rgba16float` canvas with 'extended' tone mapping), or
 * the SDR curve clamped to [0, 1] (`hdr: false`, the same look in the SDR range).
 */
export function hdrToneMapping(settings = createHDRUniforms(), flags = {}) {
  checkHelperOptions(settings, UNIFORM_NAMES, 'hdrToneMapping');
  const { hdr = true } = checkHelperOptions(flags, TONE_MAPPING_NAMES, 'hdrToneMapping');
  const options = hdr
    ? { paperWhite: settings.paperWhite, peak: settings.peak, saturation: settings.saturation, encoding: 'extended' }
    : { paperWhite: 1, peak: 1, saturation: 0, encoding: 'extended' };
  return Fn(([color, exposure]) => outputTransformNode(color.mul(exposure), options));
}

/**
 * True when the renderer outputs extended range: the WebGPU backend with a
 * canvas configured with tone mapping mode 'extended' (three does this when
 * `outputType` is HalfFloatType). Call after `await renderer.init()`.
 */
export function isExtendedOutput(renderer) {
  const backend = renderer?.backend;
  if (!backend?.isWebGPUBackend) return false;
  const configuration = backend.context?.getConfiguration?.();
  return configuration?.toneMapping?.mode === 'extended';
}

/**
 * Installs {@link hdrToneMapping} as the renderer's tone mapping
 * (`renderer.toneMapping = CustomToneMapping`), HDR when
 * {@link isExtendedOutput}, else SDR. Call after `await renderer.init()`.
 * Returns `{ hdr, settings }`; change `settings.*.value` at any time.
 */
export function applyHDRToneMapping(renderer, settings = createHDRUniforms()) {
  const hdr = isExtendedOutput(renderer);
  renderer.library.addToneMapping(hdrToneMapping(settings, { hdr }), CustomToneMapping);
  renderer.toneMapping = CustomToneMapping;
  return { hdr, settings };
}
