// The ikpd demo: a scene switcher around one WebGPURenderer, a lil-gui panel,
// draggable targets, and a test hook on window.__ikpdDemo (test-hooks.js).
import * as THREE from 'three/webgpu';
import GUI from 'lil-gui';
import { init } from 'ikpd';
import * as ikpdThree from 'ikpd/three';
import { createRenderer, Output, readUrlOptions } from './output.js';
import { SceneContext } from './context.js';
import { sceneList } from './scenes/index.js';
import { createTestHook, installTestHooks } from './test-hooks.js';

const viewport = document.getElementById('viewport');
const badge = document.getElementById('badge');
const nav = document.getElementById('scenes');
const titleEl = document.getElementById('scene-title');
const descriptionEl = document.getElementById('scene-description');
const overlay = document.getElementById('overlay');

const urlOptions = readUrlOptions();
const hook = createTestHook(sceneList, { manualFrames: urlOptions.manualFrames });

function showError(error) {
  console.error(error);
  hook.errors.push(String(error));
  const box = document.getElementById('error');
  box.hidden = false;
  box.textContent = `The demo failed to start:\n${error?.stack ?? error}`;
}

/**
 * An error while a scene runs: recorded on the test hook and shown in a
 * panel once per message, while the demo keeps drawing.
 */
function reportFrameError(ctx, error) {
  const message = String(error?.message ?? error);
  ctx.reportedErrors ??= new Set();
  if (ctx.reportedErrors.has(message)) return;
  ctx.reportedErrors.add(message);
  hook.errors.push(String(error));
  console.warn(error);
  const panel = ctx.errorPanel ??= ctx.panel('Error', 'top-center error-panel');
  panel.append(Object.assign(document.createElement('div'), { textContent: message }));
}

/** Shown instead of a scene whose solver is not in this build of ikpd. */
function placeholder(ctx, missing) {
  const panel = ctx.panel('Not available in this build', 'center');
  panel.append(`This scene needs ${missing.join(', ')}.`);
  ctx.scene.background = new THREE.Color(0x1b1d22);
  return {};
}

/** Shown for a URL hash that names no scene. */
function notFound(ctx, id) {
  const panel = ctx.panel('No such scene', 'center');
  panel.append(`There is no scene “${id}”. Pick one on the left: ${sceneList.map((s) => s.id).join(', ')}.`);
  ctx.scene.background = new THREE.Color(0x1b1d22);
  return {};
}

async function main() {
  // Every area (the scenes use the rig and batches); two threads for batches (?threads=1 for one)
  // where the page is cross-origin isolated (vite.config.js sends COOP/COEP).
  const [ikpd, { renderer, path }] = await Promise.all([init({ batch: true, threads: urlOptions.threads }), createRenderer({ forceWebGL: urlOptions.forceWebGL })]);
  viewport.appendChild(renderer.domElement);
  const output = new Output(renderer, path, { mode: urlOptions.output });
  const threads = ikpd.threads > 1 ? `threads: ${ikpd.threads}` : `threads: off${globalThis.crossOriginIsolated ? '' : ' (not cross-origin isolated)'}`;
  hook.threads = ikpd.threads;
  output.onChange = () => { badge.innerHTML = `${output.badgeHTML()}\n${threads}`; };
  output.apply();
  hook.path = { ...path, get hdrActive() { return output.hdrActive; }, get peakRatio() { return output.peakRatio; } };

  const gui = new GUI({ title: 'ikpd' });
  // Small windows: the panel starts closed so it does not cover the view (same query as style.css).
  if (matchMedia('(max-width: 700px), (max-height: 420px)').matches) gui.close();
  output.addControls(gui.addFolder('Output').close());
  // A used control gives the focus back, so the scene keys 1–6 keep working.
  gui.onFinishChange(() => { if (gui.domElement.contains(document.activeElement)) document.activeElement.blur(); });

  const missingMembers = (entry) => entry.requires.filter((name) => (name.startsWith('three.') ? !ikpdThree[name.slice(6)] : !ikpd[name]));
  for (const item of hook.sceneList) item.available = missingMembers(sceneList.find((s) => s.id === item.id)).length === 0;

  const timer = new THREE.Timer();
  timer.connect(document); // no jump in dt after the tab was hidden
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
    const known = sceneList.find((s) => s.id === id);
    const entry = known ?? { id, title: 'Unknown scene', description: '', requires: [] };
    if (active?.entry.id === entry.id) return;
    const previous = active;
    active = null;
    previous?.ctx.dispose();
    const ctx = new SceneContext({ renderer, output, gui, overlay, ikpd, ikpdThree, entry });
    const missing = known ? missingMembers(entry) : [];
    const instance = !known ? notFound(ctx, id) : missing.length ? placeholder(ctx, missing) : await (await entry.load()).create(ctx);
    ctx.instance = instance;
    ctx.saveHomes();
    if (known) ctx.gui.add({ reset: () => ctx.resetHomes() }, 'reset').name('⟲ reset handles and view');
    ctx.gui.onChange(() => ctx.refreshControls());
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
    button.title = `${entry.title} (key ${i + 1})`;
    button.addEventListener('click', () => { switching = switching.then(() => select(entry.id)).catch(showError); });
    nav.appendChild(button);
  });
  window.addEventListener('keydown', (event) => {
    // Typing into a text field or choosing in a dropdown keeps its keys.
    const t = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if ((t instanceof HTMLInputElement && t.type !== 'checkbox') || t instanceof HTMLSelectElement || t instanceof HTMLTextAreaElement) return;
    const index = Number(event.key) - 1;
    if (index >= 0 && index < sceneList.length) nav.children[index].click();
  });
  window.addEventListener('hashchange', () => {
    switching = switching.then(() => select(location.hash.slice(1))).catch(showError);
  });

  installTestHooks(hook, {
    renderer,
    output,
    ikpd,
    active: () => active,
    select: (id) => { switching = switching.then(() => select(id)); return switching; },
  });

  await select(location.hash.slice(1) || sceneList[0].id);

  renderer.setAnimationLoop(() => {
    if (!active || !hook.frameWanted()) return; // ?render=manual: only the frames a test asks for
    timer.update();
    const dt = Math.min(timer.getDelta(), 0.1);
    const { ctx, instance } = active;
    ctx.beforeRender(dt);
    try {
      instance.update?.(dt, timer.getElapsed());
    } catch (error) {
      reportFrameError(ctx, error); // keep drawing what the scene has
    }
    output.update();
    ctx.render();
    hook.frameDrawn();
  });
  hook.ready = true;
}

main().catch(showError);
