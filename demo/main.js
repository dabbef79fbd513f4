// The ikpd demo: a scene switcher around one WebGPURenderer, a lil-gui panel,
// draggable targets, and a small test hook on window.__ikpdDemo.
import * as THREE from 'three/webgpu';
import GUI from 'lil-gui';
import { init } from 'ikpd';
import * as ikpdThree from 'ikpd/three';
import { createRenderer, Output, readUrlOptions } from './output.js';
import { SceneContext } from './context.js';
import { sceneList } from './scenes/index.js';

const viewport = document.getElementById('viewport');
const badge = document.getElementById('badge');
const nav = document.getElementById('scenes');
const titleEl = document.getElementById('scene-title');
const descriptionEl = document.getElementById('scene-description');
const overlay = document.getElementById('overlay');

const urlOptions = readUrlOptions();
const hook = {
  ready: false,
  frames: 0,
  sceneId: null,
  sceneList: sceneList.map(({ id, title }) => ({ id, title })),
  path: null,
  errors: [],
};
window.__ikpdDemo = hook;

function showError(error) {
  console.error(error);
  const box = document.getElementById('error');
  box.hidden = false;
  box.textContent = `The demo failed to start:\n${error?.stack ?? error}`;
}

/** Shown instead of a scene whose solver is not in this build of ikpd. */
function placeholder(ctx, missing) {
  const panel = ctx.panel('Not available in this build', 'bottom-center');
  panel.append(`This scene needs ${missing.join(', ')}.`);
  ctx.scene.background = new THREE.Color(0x1b1d22);
  return {};
}

/**
 * Test hook: renders a frame and reads back one pixel of the WebGPU canvas
 * texture itself (CSS px), as floats — what the compositor gets, above 1.0
 * included. The copy is encoded in the same task as the render, before the
 * texture is presented. Null on the WebGL2 path.
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

async function main() {
  const [ikpd, { renderer, path }] = await Promise.all([init(), createRenderer({ forceWebGL: urlOptions.forceWebGL })]);
  viewport.appendChild(renderer.domElement);
  const output = new Output(renderer, path, { mode: urlOptions.output });
  output.onChange = () => { badge.innerHTML = output.badgeHTML(); };
  output.apply();
  hook.path = { ...path, get hdrActive() { return output.hdrActive; }, get peakRatio() { return output.peakRatio; } };

  const gui = new GUI({ title: 'ikpd' });
  const outputFolder = gui.addFolder('Output').close();
  outputFolder.add(output.settings, 'mode', ['auto', 'hdr', 'sdr']).name('tone map').onChange(() => output.apply());
  outputFolder.add(output.settings, 'exposure', 0.1, 8, 0.01).onChange(() => output.apply());
  outputFolder.add(output.settings, 'paperWhite', 80, 500, 1).name('paper white (nit)').onChange(() => output.apply()).listen();
  outputFolder.add(output.settings, 'peak', 100, 10000, 10).name('peak (nit)').onChange(() => output.apply()).listen();
  outputFolder.add(output.settings, 'saturation', 0, 1, 0.01).onChange(() => output.apply()).listen();

  const missingMembers = (entry) => entry.requires.filter((name) => (name.startsWith('three.') ? !ikpdThree[name.slice(6)] : !ikpd[name]));
  for (const item of hook.sceneList) item.available = missingMembers(sceneList.find((s) => s.id === item.id)).length === 0;

  const clock = new THREE.Timer();
  let active = null; // { entry, ctx, instance }
  let switching = Promise.resolve();

  function resize() {
    const w = viewport.clientWidth || window.innerWidth;
    const h = viewport.clientHeight || window.innerHeight;
    renderer.setSize(w, h, false);
    active?.ctx.resize(w, h);
  }
  window.addEventListener('resize', resize);

  async function select(id) {
    const entry = sceneList.find((s) => s.id === id) ?? sceneList[0];
    if (active?.entry === entry) return;
    const previous = active;
    active = null;
    previous?.ctx.dispose();
    const ctx = new SceneContext({ renderer, output, gui, overlay, ikpd, ikpdThree, entry });
    const missing = missingMembers(entry);
    const instance = missing.length ? placeholder(ctx, missing) : await (await entry.load()).create(ctx);
    ctx.instance = instance;
    active = { entry, ctx, instance };
    resize();
    for (const button of nav.children) button.setAttribute('aria-current', String(button.dataset.id === entry.id));
    titleEl.textContent = entry.title;
    descriptionEl.innerHTML = entry.description;
    document.title = `ikpd — ${entry.title}`;
    if (location.hash.slice(1) !== entry.id) history.replaceState(null, '', `${location.pathname}${location.search}#${entry.id}`);
    hook.sceneId = entry.id;
    hook.frames = 0;
  }

  sceneList.forEach((entry, i) => {
    const button = document.createElement('button');
    button.dataset.id = entry.id;
    button.innerHTML = `<kbd>${i + 1}</kbd>${entry.title}`;
    button.addEventListener('click', () => { switching = switching.then(() => select(entry.id)).catch(showError); });
    nav.appendChild(button);
  });
  window.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement) return;
    const index = Number(event.key) - 1;
    if (index >= 0 && index < sceneList.length) nav.children[index].click();
  });
  window.addEventListener('hashchange', () => {
    switching = switching.then(() => select(location.hash.slice(1))).catch(showError);
  });

  // Test hook: select a scene and wait for frames, read solver state, move targets.
  hook.select = async (id) => {
    switching = switching.then(() => select(id));
    await switching;
    const start = hook.frames;
    await new Promise((resolve) => {
      const check = () => (hook.frames >= start + 3 ? resolve() : requestAnimationFrame(check));
      check();
    });
  };
  hook.state = () => active?.instance.state?.() ?? null;
  hook.targets = () => Object.keys(active?.ctx.draggables ?? {});
  hook.screenPosition = (name) => active?.ctx.screenPosition(name) ?? null;
  hook.setTarget = (name, position) => active?.ctx.moveDraggable(name, position);
  hook.setOutput = (settings) => { Object.assign(output.settings, settings); output.apply(); };
  hook.selectDraggable = (name) => active?.ctx.selectDraggable(name);
  hook.readCanvasPixel = (x, y) => readCanvasPixel(renderer, () => active?.ctx.render(), x, y);

  await select(location.hash.slice(1) || sceneList[0].id);

  renderer.setAnimationLoop(() => {
    if (!active) return;
    clock.update();
    const dt = Math.min(clock.getDelta(), 0.1);
    const { ctx, instance } = active;
    ctx.beforeRender(dt);
    instance.update?.(dt, clock.getElapsed());
    output.update();
    ctx.render();
    hook.frames++;
  });
  hook.ready = true;
}

main().catch((error) => {
  hook.errors.push(String(error));
  showError(error);
});
