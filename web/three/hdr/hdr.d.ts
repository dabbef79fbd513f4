// ikpd/three — typings of the HDR shader nodes (web/three/hdr/hdr.js).
import type { WebGPURenderer } from 'three/webgpu';
import type { FilmicCoefficients } from '../../types/hdr/hdr.js';

/**
 * A three.js TSL node (`three/tsl`). The functions below take nodes or plain
 * numbers and return a node of the input's shape (float or vec3). Typed
 * loosely because three's TSL typings change between releases.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type TSLNode = any;
/** A TSL node or a plain number (turned into a `float` constant). */
export type NodeOrNumber = TSLNode | number;

/** Filmic curve x(ax+b)/(x(cx+d)+e) (x < 0 counts as 0); coefficients (numbers or nodes) default to the SDR curve. */
export function filmicNode(x: NodeOrNumber, coefficients?: { [K in keyof FilmicCoefficients]?: NodeOrNumber }): TSLNode;
/** The HDR filmic variant converging to `peak` (relative, 1.0 = SDR white): c = 3 / peak, d = 1. */
export function hdrCurveNode(x: NodeOrNumber, peak: NodeOrNumber): TSLNode;
/** The production HDR tone map (docs/hdr/hdr.md) on display (gamma 2.2) values; equal to x in the darks, gammaEncode(maxNit) at 1. */
export function toneMapHDRNode(x: NodeOrNumber, maxNit: NodeOrNumber): TSLNode;
/** The production tone map in the linear domain: lerp(x, x·maxNit, saturate(x^10)). */
export function toneMapHDRLinearNode(x: NodeOrNumber, maxNit: NodeOrNumber): TSLNode;
/** sign(x)·|x|^(1/2.2). */
export function gammaEncodeNode(x: NodeOrNumber): TSLNode;
/** sign(x)·|x|^2.2. */
export function gammaDecodeNode(x: NodeOrNumber): TSLNode;
/** Piecewise sRGB OETF, extended (odd for negatives, unbounded above 1). */
export function srgbEncodeNode(x: NodeOrNumber): TSLNode;
/** Piecewise sRGB EOTF, extended. */
export function srgbDecodeNode(x: NodeOrNumber): TSLNode;
/** Linear Rec.709 → Rec.2020 (vec3). */
export function rec709ToRec2020Node(rgb: TSLNode): TSLNode;
/** Linear Rec.2020 → Rec.709 (vec3). */
export function rec2020ToRec709Node(rgb: TSLNode): TSLNode;
/** mix(rec709ToRec2020(rgb), rgb, saturation): a Rec.2020 color. */
export function expandGamutNode(rgb: TSLNode, saturation: NodeOrNumber): TSLNode;
/** x · max(paperWhite, 1) / 10000. */
export function normalizePaperWhiteNode(x: NodeOrNumber, paperWhite: NodeOrNumber): TSLNode;
/** SMPTE ST 2084 (PQ) encode of Y = nits / 10000, clamped to [0, 1]. */
export function linearToPQNode(y: NodeOrNumber): TSLNode;
/** PQ decode of a signal in [0, 1] (clamped) to Y = nits / 10000. */
export function pqToLinearNode(e: NodeOrNumber): TSLNode;

/** Settings of {@link outputTransformNode}: numbers or nodes (uniforms) for the three settings. */
export interface OutputTransformNodeSettings {
  /** Nits of SDR white (made ≥ 1 in the shader). Default 250. @default 250 */
  paperWhite?: NodeOrNumber;
  /** Display peak in nits (made ≥ paperWhite in the shader). Default 1000. @default 1000 */
  peak?: NodeOrNumber;
  /** Gamut expansion (clamped to [0, 1] in the shader). Default 0. @default 0 */
  saturation?: NodeOrNumber;
  /**
   * 'scene' (default): linear scene color, SDR filmic and the production HDR tone map first;
   * 'display': the frame after the UI pass (tone-mapped, gamma 2.2): only the output conversion,
   * so 1.0 lands at paper white.
   */
  input?: 'scene' | 'display';
  /** 'pq' (default): Rec.2020 PQ signal; 'extended': linear Rec.709, 1.0 = paper white, up to peak / paperWhite. */
  encoding?: 'pq' | 'extended';
}

/** The output chain (docs/hdr/hdr.md), as `ikpd.hdr.outputTransform`, on a vec3 node. Throws a RangeError for a bad `input`/`encoding`. */
export function outputTransformNode(color: TSLNode, settings?: OutputTransformNodeSettings): TSLNode;

/** Uniform nodes of the three settings; set `.value` at any time. */
export interface HDRUniforms {
  paperWhite: TSLNode;
  peak: TSLNode;
  saturation: TSLNode;
}

/** Creates {@link HDRUniforms} (defaults paperWhite 250, peak 1000, saturation 0). */
export function createHDRUniforms(settings?: { paperWhite?: number; peak?: number; saturation?: number }): HDRUniforms;

/**
 * A tone-mapping function for `renderer.library.addToneMapping(fn, CustomToneMapping)`:
 * scene color × exposure → linear extended Rec.709 with 1.0 = paper white,
 * up to peak / paperWhite (`hdr: true`, default), or the SDR curve in [0, 1] (`hdr: false`).
 */
export function hdrToneMapping(settings?: HDRUniforms | HDRToneMappingSettings, options?: { hdr?: boolean }): TSLNode;

/** Settings of {@link hdrToneMapping}: the three settings only (its input is the scene and its encoding 'extended'; `input`/`encoding` are unknown options, a TypeError). */
export type HDRToneMappingSettings = Omit<OutputTransformNodeSettings, 'input' | 'encoding'>;

/** True when the renderer's canvas takes extended range (WebGPU, tone mapping mode 'extended'). Call after `await renderer.init()`. */
export function isExtendedOutput(renderer: WebGPURenderer): boolean;

/**
 * Installs {@link hdrToneMapping} as `renderer.toneMapping = CustomToneMapping`,
 * HDR when {@link isExtendedOutput}, else SDR. Call after `await renderer.init()`.
 */
export function applyHDRToneMapping(renderer: WebGPURenderer, settings?: HDRUniforms): { hdr: boolean; settings: HDRUniforms };
