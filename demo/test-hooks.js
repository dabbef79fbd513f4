// The demo's test hook, window.__ikpdDemo: what the browser tests (tests/browser/)
// read and drive. main.js keeps `ready`, `frames`, `sceneId`, `path` and `errors`
// up to date and asks frameWanted() before each frame; installTestHooks adds the
// functions that need the renderer once it runs. Only lil-gui's public API is used
// (controllersRecursive, $name, $disable, gui.load).
import * as THREE from 'three/webgpu';

/**
 * The hook object, registered on window before the demo starts (so a failed start is visible).
 * It also gates the render loop: every frame draws, or with `manualFrames` (?render=manual, the
 * browser tests: SwiftShader draws each frame on the CPU) only the frames renderFrames asks for.
 */
export function createTestHook(sceneList, { manualFrames = false } = {}) {
  let wanted = 0; // frames asked for and not drawn yet (manual frames)
  let drawn = 0; // frames drawn since the page loaded
  const waiting = []; // [frame count to reach, resolve]
  const hook = {
    ready: false,
    frames: 0, // since the scene was selected
    sceneId: null,
    sceneList: sceneList.map(({ id, title }) => ({ id, title })),
    path: null,
    errors: [],
    manualFrames, // settable: a test can stop (true) or start (false) the continuous drawing
    /** Whether the loop draws this frame: always, unless frames are manual and none is wanted. */
    frameWanted() {
      if (!hook.manualFrames) return true;
      if (wanted === 0) return false;
      wanted--;
      return true;
    },
    /** Called by the loop after each frame it drew. */
    frameDrawn() {
      hook.frames++;
      drawn++;
      for (let i = waiting.length - 1; i >= 0; i--) if (drawn >= waiting[i][0]) waiting.splice(i, 1)[0][1]();
    },
    /** Resolves once `count` more frames are drawn (with manual frames, asks for them). */
    renderFrames(count = 1) {
      if (count <= 0) return Promise.resolve();
      if (hook.manualFrames) wanted += count;
      const until = drawn + (hook.manualFrames ? wanted : count);
      return new Promise((resolve) => waiting.push([until, resolve]));
    },
  };
  window.__ikpdDemo = hook;
  return hook;
}

/**
 * Adds the hook's functions. `active()` returns the running scene ({ ctx, instance }) or null,
 * `select(id)` switches scenes (a promise), `ikpd` is the loaded library.
 */
export function installTestHooks(hook, { renderer, output, ikpd, active, select }) {
  /** Selects a scene and waits for `frames` rendered frames. */
  hook.select = async (id, { frames = 3 } = {}) => {
    await select(id);
    await hook.renderFrames(frames);
  };
  /**
   * Sets a control of the active scene's folder (by its shown name) as the user would: through
   * gui.load, which sets the value and ends the change (onChange, then onFinishChange).
   */
  hook.control = (name, value) => {
    const controller = active()?.ctx.gui.controllersRecursive().find((c) => c.$name.textContent === name);
    if (!controller) throw new Error(`no control named ${name}`);
    controller.parent.load({ controllers: { [name]: value } }, false);
    return controller.$disable.hasAttribute('disabled') ? 'disabled' : 'enabled';
  };
  /** Runs the active scene's update `count` times with a fixed `dt` (no rendering). */
  hook.simulate = (dt, count = 1) => {
    const instance = active()?.instance;
    for (let i = 0; i < count; i++) instance?.update?.(dt, 0);
    return hook.state();
  };
  /** three.js's GPU resource counts (textures, geometries). */
  hook.memory = () => ({ ...renderer.info.memory });
  /** ikpd's WASM heap: its size and the bytes C++ allocations hold (leaked solvers show here). */
  hook.wasmMemory = () => ikpd.memoryStats();
  hook.reset = () => active()?.ctx.resetHomes();
  hook.state = () => active()?.instance.state?.() ?? null;
  hook.targets = () => Object.keys(active()?.ctx.draggables ?? {});
  hook.screenPosition = (name) => active()?.ctx.screenPosition(name) ?? null;
  hook.setTarget = (name, position) => active()?.ctx.moveDraggable(name, position);
  hook.setOutput = (settings) => { Object.assign(output.settings, settings); output.apply(); };
  hook.selectDraggable = (name) => active()?.ctx.selectDraggable(name);
  hook.readCanvasPixel = (x, y) => readCanvasPixel(renderer, () => active()?.ctx.render(), x, y);
}

/**
 * Renders a frame and reads back one pixel of the WebGPU canvas texture itself
 * (CSS px), as floats — what the compositor gets, above 1.0 included. The copy
 * is encoded in the same task as the render, before the texture is presented.
 * Null on the WebGL2 path.
 */
async function readCanvasPixel(renderer, render, x, y) {
  const backend = renderer.backend;
  if (!backend.isWebGPUBackend) return null;
  render();
  const device = backend.device;
  const source = backend.context.getCurrentTexture();
  const ratio = renderer.getPixelRatio();
  const px = Math.min(source.width - 1, Math.round(x * ratio));
  const py = Math.min(source.height - 1, Math.round(y * ratio));
  const buffer = device.createBuffer({ size: 256, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const encoder = device.createCommandEncoder();
  encoder.copyTextureToBuffer({ texture: source, origin: { x: px, y: py } }, { buffer, bytesPerRow: 256 }, { width: 1, height: 1 });
  device.queue.submit([encoder.finish()]);
  await buffer.mapAsync(GPUMapMode.READ);
  const format = source.format;
  let rgba;
  if (format === 'rgba16float') {
    rgba = Array.from(new Uint16Array(buffer.getMappedRange(), 0, 4), THREE.DataUtils.fromHalfFloat);
  } else {
    const bytes = Array.from(new Uint8Array(buffer.getMappedRange(), 0, 4), (b) => b / 255);
    rgba = format === 'bgra8unorm' ? [bytes[2], bytes[1], bytes[0], bytes[3]] : bytes;
  }
  buffer.unmap();
  buffer.destroy();
  return { format, rgba };
}
