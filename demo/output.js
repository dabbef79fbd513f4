// Renderer creation and the output path: WebGPU with an HDR (rgba16float,
// extended) canvas, else WebGPU SDR, else WebGL2 — and ikpd's output
// transform (ikpd/three's TSL node) installed as the renderer's custom tone
// mapping so every scene gets it, with an SDR | HDR split and an untone-mapped
// calibration image on top.
import * as THREE from 'three/webgpu';
import { Fn, select, screenUV, texture, uniform } from 'three/tsl';
import { outputTransformNode } from 'ikpd/three/hdr';

/**
 * What the page was asked for in the URL: ?renderer=webgl forces WebGL2, ?output=hdr|sdr overrides
 * auto, ?threads=n (1–16; 0 means 1) sets init({ threads }) — 2 unless given. ?render=manual (for
 * the browser tests) draws a frame only when the test hook asks for one (renderFrames).
 */
export function readUrlOptions(search = location.search) {
  const params = new URLSearchParams(search);
  const threads = Number(params.get('threads') ?? 2);
  return {
    forceWebGL: params.get('renderer') === 'webgl',
    output: ['hdr', 'sdr', 'auto'].includes(params.get('output')) ? params.get('output') : 'auto',
    threads: Number.isInteger(threads) ? Math.min(16, Math.max(1, threads)) : 2,
    // The crowd scene's solver: three batches, or one RigBatch (docs/batch/batches.md).
    solver: params.get('solver') === 'rigBatch' ? 'rigBatch' : 'batches',
    manualFrames: params.get('render') === 'manual',
  };
}

async function hasWebGPUAdapter() {
  if (!('gpu' in navigator)) return false;
  try {
    return (await navigator.gpu.requestAdapter()) !== null;
  } catch {
    return false;
  }
}

/**
 * Creates the renderer on the best path available.
 * @returns {Promise<{renderer: THREE.WebGPURenderer, path: object}>}
 */
export async function createRenderer({ forceWebGL = false } = {}) {
  const webgpu = !forceWebGL && (await hasWebGPUAdapter());
  const renderer = new THREE.WebGPURenderer({
    antialias: true,
    forceWebGL: !webgpu,
    // HalfFloatType output makes three configure the canvas rgba16float with
    // toneMapping {mode: 'extended'}; outputBufferType stays HalfFloatType.
    outputType: webgpu ? THREE.HalfFloatType : undefined,
  });
  await renderer.init();
  renderer.setPixelRatio(Math.min(window.devicePixelRatio, 2));
  renderer.outputColorSpace = THREE.SRGBColorSpace;
  renderer.shadowMap.enabled = true;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  return { renderer, path: { ...detectPath(renderer), forcedWebGL: forceWebGL } };
}

/** Reads back what the backend actually configured. */
export function detectPath(renderer) {
  const backend = renderer.backend;
  if (backend.isWebGPUBackend) {
    let configuration = null;
    try {
      configuration = backend.context.getConfiguration?.() ?? null;
    } catch {
      configuration = null;
    }
    const format = configuration?.format ?? backend.utils.getPreferredCanvasFormat();
    const toneMappingMode = configuration?.toneMapping?.mode ?? 'standard';
    return { backend: 'webgpu', format, toneMappingMode, hdrCanvas: format === 'rgba16float' && toneMappingMode === 'extended' };
  }
  return { backend: 'webgl2', format: 'rgba8unorm', toneMappingMode: 'standard', hdrCanvas: false };
}

/** Whether the display says it can show more than SDR white. */
export function displayIsHDR() {
  return typeof matchMedia === 'function' && matchMedia('(dynamic-range: high)').matches;
}

/**
 * The output stage shared by every scene: settings (paper white, peak,
 * saturation, exposure, mode), uniforms feeding the tone map, an optional
 * SDR|HDR split position, and the badge text.
 */
export class Output {
  constructor(renderer, path, { mode = 'auto' } = {}) {
    this.renderer = renderer;
    this.path = path;
    this.settings = { mode, paperWhite: 250, peak: 1000, saturation: 0, exposure: 1 };
    this.uniforms = {
      exposure: uniform(1),
      paperWhite: uniform(250),
      peak: uniform(1000), // set to paperWhite while the HDR curve is off → the SDR look
      saturation: uniform(0),
      split: uniform(-1), // screen-space x below which the SDR curve is shown; < 0 → off
      // Calibration image drawn straight into the output (already in
      // output units, so not tone mapped), in screen UV: top-left and size.
      calibrationOrigin: uniform(new THREE.Vector2(0, 0)),
      calibrationSize: uniform(new THREE.Vector2(0, 0)),
      calibrationMax: uniform(1),
    };
    this.calibrationTexture = new THREE.DataTexture(new Float32Array(4), 1, 1, THREE.RGBAFormat, THREE.FloatType);
    this.calibrationNode = texture(this.calibrationTexture);
    this.calibration = null;
    this.controllers = new Set(); // every GUI control of these settings, in any folder
    const u = this.uniforms;
    const toneMapping = Fn(([color]) => {
      // ikpd's output transform, 'extended' encoding: linear Rec.709, 1.0 = paper white, up to peak / paperWhite.
      const exposed = color.mul(u.exposure);
      const hdr = outputTransformNode(exposed, { paperWhite: u.paperWhite, peak: u.peak, saturation: u.saturation, encoding: 'extended' });
      const sdr = outputTransformNode(exposed, { paperWhite: 1, peak: 1, saturation: 0, encoding: 'extended' });
      const mapped = select(screenUV.x.lessThan(u.split), sdr, hdr);
      const rel = screenUV.sub(u.calibrationOrigin).div(u.calibrationSize);
      const inside = rel.x.greaterThanEqual(0).and(rel.x.lessThan(1)).and(rel.y.greaterThanEqual(0)).and(rel.y.lessThan(1));
      const calibration = this.calibrationNode.sample(rel).rgb.min(u.calibrationMax);
      return select(inside, calibration, mapped);
    }); // no layout: inlined, so screenUV (fragCoord) is in scope
    renderer.library.addToneMapping(toneMapping, THREE.CustomToneMapping);
    renderer.toneMapping = THREE.CustomToneMapping;
    this.apply();
  }

  /** True when the HDR curve is active: an HDR canvas and (auto) an HDR display, or forced. */
  get hdrActive() {
    if (!this.path.hdrCanvas) return false;
    if (this.settings.mode === 'hdr') return true;
    if (this.settings.mode === 'sdr') return false;
    return displayIsHDR();
  }

  /** Effective peak in units of SDR white (1 on the SDR paths). */
  get peakRatio() {
    return this.hdrActive ? Math.max(1, this.settings.peak / this.settings.paperWhite) : 1;
  }

  /**
   * The tone-map settings the HDR side of the output applies now: the user's
   * settings with the HDR curve on, else peak = paper white (the SDR look).
   * The SDR side applies `{ ...toneSettings(), peak: paperWhite, saturation: 0 }`.
   */
  toneSettings() {
    const s = this.settings;
    const hdr = this.hdrActive;
    return { paperWhite: s.paperWhite, peak: hdr ? s.peak : s.paperWhite, saturation: hdr ? s.saturation : 0 };
  }

  /** Pushes the settings into the uniforms, every control and the badge. */
  apply() {
    const s = this.settings;
    s.peak = Math.max(s.peak, s.paperWhite);
    const tone = this.toneSettings();
    this.uniforms.exposure.value = s.exposure;
    this.uniforms.paperWhite.value = tone.paperWhite;
    this.uniforms.peak.value = tone.peak;
    this.uniforms.saturation.value = tone.saturation;
    for (const [controller, hdrOnly] of this.controllers) {
      controller.updateDisplay();
      if (hdrOnly) controller.enable(this.hdrActive);
    }
    this.onChange?.();
  }

  /**
   * Adds the output controls to a lil-gui folder: the same names, ranges and
   * values wherever they appear. Returns a function that forgets them (call it
   * before the folder is destroyed).
   */
  addControls(folder) {
    const s = this.settings;
    const apply = () => this.apply();
    const added = [
      [folder.add(s, 'mode', ['auto', 'hdr', 'sdr']).name('tone map'), false],
      [folder.add(s, 'exposure', 0.1, 8, 0.01), false],
      // These only change the picture while the HDR curve is on.
      [folder.add(s, 'paperWhite', 80, 500, 1).name('paper white (nit)'), true],
      [folder.add(s, 'peak', 100, 10000, 10).name('peak (nit)'), true],
      [folder.add(s, 'saturation', 0, 1, 0.01), true],
    ];
    for (const entry of added) {
      entry[0].onChange(apply);
      this.controllers.add(entry);
      entry[0].enable(!entry[1] || this.hdrActive);
    }
    return () => { for (const entry of added) this.controllers.delete(entry); };
  }

  /** Shows the SDR curve left of `x` (0..1 of the width), or turns the split off with null. */
  setSplit(x) {
    this.uniforms.split.value = x === null ? -1 : x;
  }

  /**
   * Shows an image in output units (1.0 = SDR white, e.g. ikpd.hdr.calibrationImage
   * with encoding 'extended') over the DOM `element`, bypassing the tone map;
   * null hides it. Rows run top to bottom.
   */
  setCalibration(calibration) {
    this.calibration = calibration;
    if (!calibration) {
      this.uniforms.calibrationSize.value.set(0, 0);
      return;
    }
    const { image } = calibration;
    const old = this.calibrationTexture;
    this.calibrationTexture = new THREE.DataTexture(image.data, image.width, image.height, THREE.RGBAFormat, THREE.FloatType);
    this.calibrationTexture.flipY = false;
    this.calibrationTexture.needsUpdate = true;
    this.calibrationNode.value = this.calibrationTexture;
    old.dispose();
  }

  /** Per frame: keeps the calibration image on its DOM element. */
  update() {
    if (!this.calibration) return;
    const canvas = this.renderer.domElement.getBoundingClientRect();
    const box = this.calibration.element.getBoundingClientRect();
    if (canvas.width === 0) return;
    const u = this.uniforms;
    u.calibrationOrigin.value.set((box.left - canvas.left) / canvas.width, (box.top - canvas.top) / canvas.height);
    u.calibrationSize.value.set(box.width / canvas.width, box.height / canvas.height);
    u.calibrationMax.value = this.hdrActive ? 1e4 : 1;
  }

  /** Badge contents as HTML. */
  badgeHTML() {
    const p = this.path;
    const s = this.settings;
    if (p.backend === 'webgl2') {
      const why = p.forcedWebGL ? 'forced by ?renderer=webgl' : 'WebGPU unavailable';
      return `<b class="gl">WebGL2 · SDR</b> (${why})\ncanvas rgba8 sRGB · peak 1.0× SDR white`;
    }
    if (!p.hdrCanvas) {
      return `<b class="sdr">WebGPU · SDR</b>\ncanvas ${p.format} · ${p.toneMappingMode} · peak 1.0× SDR white`;
    }
    const display = displayIsHDR() ? 'HDR display' : 'display reports SDR';
    if (!this.hdrActive) {
      return `<b class="sdr">WebGPU · HDR canvas, SDR tone map</b>\ncanvas ${p.format} · ${p.toneMappingMode} · ${display}\npeak 1.0× SDR white (set Output ▸ tone map to hdr to force)`;
    }
    return `<b class="hdr">WebGPU · HDR</b>\ncanvas ${p.format} · ${p.toneMappingMode} · ${display}\npeak ${this.peakRatio.toFixed(1)}× SDR white (${Math.round(s.peak)} nit @ ${Math.round(s.paperWhite)} nit paper white)`;
  }
}
