// Inertialized transitions (docs/pd/inertializer.md, "three.js"): the Fox switches
// Survey, Walk and Run through ikpd/three's Inertializer (buttons, or keys S, W, R;
// the digits select scenes);
// the ghost beside it makes the same switches with crossFadeTo. The plot shows a
// front foot's height for both: the inertialized one plays one clip at a time and
// keeps going where it was at a switch, the cross-faded one blends two clips for
// the whole fade, and rapid switches chain fades.
import * as THREE from 'three/webgpu';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { setupStage } from '../lib/stage.js';
import { disposeModel, loadSample } from '../lib/sampleCharacters.js';

const FOX_SCALE = 0.01; // the Fox is in centimetres
const CLIPS = ['Survey', 'Walk', 'Run'];
const FOOT = 'b_LeftHand_011'; // the left front foot
const HISTORY_SECONDS = 6;
const _v = new THREE.Vector3();

async function loadFox(scene, x, ghost) {
  const model = await loadSample('Fox');
  model.root.scale.setScalar(FOX_SCALE);
  model.root.position.x = x;
  if (ghost) {
    model.root.traverse((o) => {
      if (!o.isMesh) return;
      o.material = o.material.clone();
      o.material.transparent = true;
      o.material.opacity = 0.45;
    });
  }
  scene.add(model.root);
  const mixer = new THREE.AnimationMixer(model.root);
  const actions = Object.fromEntries(CLIPS.map((name) => [name, mixer.clipAction(model.clips.find((c) => c.name === name))]));
  actions.Survey.play();
  const foot = model.root.getObjectByName(FOOT);
  // The foot's height in centimetres above the ground.
  const height = () => { model.root.updateMatrixWorld(true); return foot.getWorldPosition(_v).y / FOX_SCALE; };
  return { model, mixer, actions, foot, height };
}

export async function create(ctx) {
  const { scene, camera, controls, ikpd, ikpdThree } = ctx;
  setupStage(ctx, { size: 10 });
  camera.position.set(0, 1.3, 3.4);
  controls.target.set(0, 0.35, 0);

  const fox = await loadFox(scene, -0.6, false);
  const ghost = await loadFox(scene, 0.6, true);
  ctx.label(fox.model.root, 'inertialized', [0, 1.1, 0]);
  ctx.label(ghost.model.root, 'crossFadeTo', [0, 1.1, 0]);
  const params = { clip: 'Survey', halfLife: 0.1, fade: 0.3 };
  const inertia = new ikpdThree.Inertializer(ikpd, fox.mixer, { halfLife: params.halfLife });
  let switches = 0;
  let playing = 'Survey';

  function play(name) {
    if (name === playing) return;
    inertia.transition(fox.actions[name], { halfLife: params.halfLife });
    const to = ghost.actions[name];
    to.reset().play();
    ghost.actions[playing].crossFadeTo(to, params.fade, false);
    playing = name;
    params.clip = name;
    switches++;
    clipControl.updateDisplay();
  }

  const gui = ctx.gui;
  const clipControl = gui.add(params, 'clip', CLIPS).name('clip').onChange(play);
  for (const name of CLIPS) gui.add({ [name]: () => play(name) }, name).name(`${name} (key ${name[0]})`);
  gui.add(params, 'halfLife', 0, 0.5, 0.01).name('half-life (s)');
  gui.add(params, 'fade', 0.05, 1, 0.01).name('ghost fade (s)');
  const onKey = (event) => {
    const t = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey || t instanceof HTMLInputElement || t instanceof HTMLSelectElement) return;
    const name = CLIPS.find((c) => c[0] === event.key.toUpperCase());
    if (name !== undefined) play(name);
  };
  window.addEventListener('keydown', onKey);

  // ---------------------------------------------------------------- plot
  const panel = ctx.panel('Front foot height (cm)', 'bottom-right');
  const times = [], inert = [], faded = [];
  const plot = new uPlot({
    width: 330,
    height: 160,
    scales: { x: { time: false } },
    axes: [
      { stroke: '#9a9aa6', grid: { stroke: 'rgba(255,255,255,.07)' }, size: 24 },
      { stroke: '#9a9aa6', grid: { stroke: 'rgba(255,255,255,.07)' }, size: 34 },
    ],
    series: [
      { label: 't (s)' },
      { label: 'inertialized', stroke: '#7bd88f', width: 2 },
      { label: 'crossFadeTo', stroke: '#9fb7d6', width: 1.5 },
    ],
    legend: { show: true, live: false },
    cursor: { show: false },
  }, [times, inert, faded], panel);

  let time = 0;
  let finite = true;
  let largestStep = 0; // the inertialized foot's largest move in one update (cm)
  let last = null;
  return {
    update(dt) {
      time += dt;
      fox.mixer.update(dt);
      inertia.update(dt);
      ghost.mixer.update(dt);
      const h = fox.height();
      const p = fox.foot.getWorldPosition(_v).divideScalar(FOX_SCALE);
      if (last !== null) largestStep = Math.max(largestStep, p.distanceTo(last));
      last = (last ?? new THREE.Vector3()).copy(p);
      const g = ghost.height();
      finite &&= Number.isFinite(h) && Number.isFinite(g);
      times.push(time);
      inert.push(h);
      faded.push(g);
      while (times[0] < time - HISTORY_SECONDS) { times.shift(); inert.shift(); faded.shift(); }
      plot.setData([times, inert, faded]);
    },
    state() {
      return { clip: playing, switches, elapsed: inertia.elapsed, finite, largestStep, time };
    },
    dispose() {
      window.removeEventListener('keydown', onKey);
      plot.destroy();
      inertia.dispose();
      disposeModel(fox.model.root);
      disposeModel(ghost.model.root);
    },
  };
}
