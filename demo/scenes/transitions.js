// Inertialized transitions (docs/pd/inertializer.md, "three.js") beside a cross-fade: two copies
// of a character play the same clips. On the left, ikpd/three's Inertializer switches clips
// at once and removes the offset from the old pose with a critically damped spring; on the
// right, a ghost switches with AnimationAction.crossFadeTo, blending both clips for the fade.
// Switch by the clip buttons, the keys (first letter of the clip), or "rapid" (a switch
// every interval). The plot shows a foot's height and the hips' angular speed for both.
import * as THREE from 'three/webgpu';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { ghostMaterial, setupStage } from '../lib/stage.js';
import { createHumanoid } from '../lib/humanoid.js';
import { createWalk } from '../lib/walk.js';
import { disposeModel, loadSample } from '../lib/sampleCharacters.js';

const HISTORY = 360; // samples kept in the plot (6 s at 60 Hz)
const SPACING = 0.7; // each copy stands this far from the middle

/** The humanoid's procedural walk baked into a looping clip (one cycle, 30 keys/s). */
function walkClip(name, human, options) {
  const walk = createWalk(human.bones, options);
  const frames = Math.max(2, Math.round(walk.period * 30));
  const times = Array.from({ length: frames + 1 }, (_, i) => (i * walk.period) / frames);
  const roles = Object.keys(human.bones);
  const values = roles.map(() => []);
  const hips = [];
  for (const t of times) {
    walk.pose(t / walk.period);
    roles.forEach((role, i) => values[i].push(...human.bones[role].quaternion.toArray()));
    hips.push(...human.bones.hips.position.toArray());
  }
  walk.rest();
  const tracks = roles.map((role, i) => new THREE.QuaternionKeyframeTrack(`${human.bones[role].name}.quaternion`, times, values[i]));
  tracks.push(new THREE.VectorKeyframeTrack(`${human.bones.hips.name}.position`, times, hips));
  return new THREE.AnimationClip(name, walk.period, tracks);
}

/** Two copies of a character: `{ roots, clips: [name…], foot(i), hips(i), dispose }`. */
async function loadCharacter(name) {
  if (name === 'Fox') {
    const copies = await Promise.all([loadSample('Fox'), loadSample('Fox')]);
    for (const c of copies) c.root.scale.setScalar(0.01); // centimetres
    ghostly(copies[1].root);
    return {
      roots: copies.map((c) => c.root),
      clips: copies.map((c) => Object.fromEntries(c.clips.map((clip) => [clip.name, clip]))),
      names: ['Survey', 'Walk', 'Run'],
      speeds: { Survey: 0, Walk: 1.0, Run: 2.5 }, // m/s: how fast the clips carry the Fox (tests/support/real-walk.js)
      foot: (i) => copies[i].root.getObjectByName('b_LeftHand_011'), // the front left paw
      hips: (i) => copies[i].root.getObjectByName('b_Hip_01'),
      cut: async () => { const c = await loadSample('Fox'); c.root.scale.setScalar(0.01); return { root: c.root, clips: Object.fromEntries(c.clips.map((clip) => [clip.name, clip])), dispose: () => disposeModel(c.root) }; },
      dispose: () => copies.forEach((c) => disposeModel(c.root)),
    };
  }
  const humans = [createHumanoid({ names: 'mixamo' }), createHumanoid({ names: 'mixamo', material: ghostMaterial(0.4) })];
  const clips = humans.map((h) => ({
    Idle: h.idle,
    Walk: walkClip('Walk', h, {}),
    Run: walkClip('Run', h, { stride: 1.3, speed: 2.2, lift: 0.14, duty: 0.55, crouch: 0.1 }),
  }));
  return {
    roots: humans.map((h) => h.root),
    clips,
    names: ['Idle', 'Walk', 'Run'],
    speeds: { Idle: 0, Walk: 1.1, Run: 2.2 }, // m/s: the walks' own (demo/lib/walk.js)
    foot: (i) => humans[i].bones.leftFoot,
    hips: (i) => humans[i].bones.hips,
    cut: async () => { const h = createHumanoid({ names: 'mixamo' }); return { root: h.root, clips: { Idle: h.idle, Walk: walkClip('Walk', h, {}), Run: walkClip('Run', h, { stride: 1.3, speed: 2.2, lift: 0.14, duty: 0.55, crouch: 0.1 }) }, dispose: () => disposeModel(h.root) }; },
    dispose: () => humans.forEach((h) => disposeModel(h.root)),
  };
}

/** The ghost's look: every mesh a translucent blue-grey. */
function ghostly(root) {
  root.traverse((o) => {
    if (!o.isMesh) return;
    for (const m of [o.material].flat()) m.dispose();
    o.material = ghostMaterial(0.4);
    o.castShadow = false;
  });
}

export async function create(ctx) {
  const { scene, camera, controls, gui, ikpd, ikpdThree } = ctx;
  setupStage(ctx);
  camera.position.set(0.4, 1.5, 3.6);
  controls.target.set(0.35, 0.55, 0);

  const params = { character: 'Fox', clip: 'Walk', halfLife: 0.1, fadeTime: 0.3, rapid: false, every: 0.3, holdFeet: false };
  const _q = new THREE.Quaternion();
  const _p = new THREE.Vector3();
  const _p2 = new THREE.Vector3();
  let character = null; // { roots, names, mixers, actions, inertializer, copies, current }
  let message = ''; // why a character failed to load
  let time = 0;
  let sinceSwitch = 0;
  let transitions = 0;
  let rapidIndex = 0;
  let rapidClock = 0;
  const worstJump = [0, 0]; // the largest per-frame bone turn since state() was last read
  // Hold stance feet (docs/pd/inertializer.md, "Stance feet"): the characters walk along +Z at the clip's speed
  // (stance is read in the world) and an unseen copy cut between the clips measures where a cut puts the feet.
  let feetFromCut = 0; // the largest distance (cm) of a stance foot from the cut's, from half a half-life after the last switch
  let stanceSamples = 0;
  let travelled = 0;
  const labels = [];

  // The plot: a foot's height (cm) and the hips' angular speed (rad/s), both copies.
  const plotPanel = ctx.panel('Inertialized (solid) and cross-fade (dashed)', 'bottom-right');
  const series = [[], [], [], [], []]; // t, foot inertialized, foot cross-fade, hips inertialized, hips cross-fade
  const axes = [{ stroke: '#9a9aa6', grid: { stroke: 'rgba(255,255,255,.07)' }, size: 24 }, { stroke: '#9a9aa6', grid: { stroke: 'rgba(255,255,255,.07)' }, size: 34 }];
  const plotOptions = (label, a, b) => ({
    width: 330, height: 120, scales: { x: { time: false } }, axes, legend: { show: true, live: false }, cursor: { show: false },
    series: [{ label: 't (s)' }, { label: a, stroke: '#7bd88f', width: 2 }, { label: b, stroke: '#9fb7d6', width: 1.5, dash: [4, 3] }],
  });
  const plots = [
    new uPlot(plotOptions('foot height (cm)', 'inertialized', 'cross-fade'), [series[0], series[1], series[2]], plotPanel),
    new uPlot(plotOptions('hips (rad/s)', 'inertialized', 'cross-fade'), [series[0], series[3], series[4]], plotPanel),
  ];

  async function useCharacter(name) {
    const loaded = await loadCharacter(name);
    if (character) dropCharacter();
    const mixers = loaded.roots.map((root) => new THREE.AnimationMixer(root));
    const actions = mixers.map((mixer, i) => Object.fromEntries(loaded.names.map((n) => [n, mixer.clipAction(loaded.clips[i][n])])));
    loaded.roots.forEach((root, i) => { root.position.x = (i === 0 ? -1 : 1) * SPACING; scene.add(root); });
    const inertializer = makeInertializer(mixers[0]);
    const cut = await loaded.cut();
    const cutMixer = new THREE.AnimationMixer(cut.root);
    const cutActions = Object.fromEntries(loaded.names.map((n) => [n, cutMixer.clipAction(cut.clips[n])]));
    const start = loaded.names.includes(params.clip) ? params.clip : 'Walk';
    for (const a of [...actions, cutActions]) a[start].play();
    for (const m of [...mixers, cutMixer]) m.update(0);
    // The feet compared: each leg's end the Inertializer holds, in the shown copy and the cut one.
    const probe = new ikpdThree.Inertializer(ikpd, loaded.roots[0], { feet: 'auto' }); // which legs 'auto' holds
    const ends = probe.feet.map((leg) => { let o = leg[2]; while (o.children.some((c) => c.isBone)) o = o.children.find((c) => c.isBone); return o.name; });
    probe.dispose();
    const feet = { shown: ends.map((n) => loaded.roots[0].getObjectByName(n)), cut: ends.map((n) => cut.root.getObjectByName(n)), last: ends.map(() => new THREE.Vector3()), seen: false };
    // Per copy: its bones and their last quaternions (the frame-to-frame turn), the hips and the foot.
    const copies = loaded.roots.map((root, i) => {
      const bones = [];
      root.traverse((o) => { if (o.isBone) bones.push(o); });
      return { bones, quaternions: new Float64Array(4 * bones.length), hips: new THREE.Quaternion(), hipsBone: loaded.hips(i), foot: loaded.foot(i), jump: 0, sampled: false };
    });
    character = { ...loaded, mixers, actions, inertializer, copies, current: start, cut, cutMixer, cutActions, feet };
    params.character = name;
    params.clip = start;
    labels.push(ctx.label(loaded.roots[0], 'Inertializer', [0, 1.1, 0]), ctx.label(loaded.roots[1], 'crossFadeTo', [0, 1.1, 0]));
    clipControl = clipControl.options(loaded.names).name('clip').onChange(switchTo); // lil-gui makes a new controller
    clipControl.setValue(start);
    sample(0);
    worstJump.fill(0);
  }

  function makeInertializer(mixer) {
    const feet = params.holdFeet ? { feet: 'auto', stanceSpeed: 0.8 } : {};
    return new ikpdThree.Inertializer(ikpd, mixer, { halfLife: params.halfLife, ...feet });
  }

  function dropCharacter() {
    for (const root of character.roots) scene.remove(root);
    for (const m of [...character.mixers, character.cutMixer]) m.stopAllAction();
    character.inertializer.dispose();
    character.cut.dispose();
    character.dispose();
    const gone = labels.splice(0);
    for (const el of gone) el.remove();
    ctx.labels = ctx.labels.filter((l) => !gone.includes(l.el));
    character = null;
  }

  /** Switches both copies to `name`: the Inertializer at once, the ghost by crossFadeTo. */
  function switchTo(name) {
    if (!character || !(name in character.actions[0])) return;
    const [mine, ghost] = character.actions;
    if (name !== character.current) {
      const next = ghost[name];
      next.reset().setEffectiveWeight(1).play();
      ghost[character.current].crossFadeTo(next, params.fadeTime, false);
      character.inertializer.transition(mine[name].reset(), { halfLife: params.halfLife });
      character.cutMixer.stopAllAction();
      character.cutActions[name].reset().play();
      feetFromCut = 0;
      stanceSamples = 0;
      character.current = name;
      transitions++;
      sinceSwitch = 0;
    }
    params.clip = name;
    if (clipControl.getValue() !== name) clipControl.setValue(name);
  }

  /** The stance feet of the new clip (a cut's leg end slower than 40 cm/s) against the cut's, from half a half-life on. */
  function measureFeet(dt) {
    const { feet, cut, roots } = character;
    cut.root.position.x = roots[0].position.x;
    roots[0].updateMatrixWorld(true);
    cut.root.updateMatrixWorld(true);
    feet.cut.forEach((bone, i) => {
      const p = bone.getWorldPosition(_p);
      const slow = feet.seen && dt > 0 && p.distanceTo(feet.last[i]) / dt < 0.4;
      feet.last[i].copy(p);
      if (!slow || sinceSwitch < params.halfLife / 2 || transitions === 0) return;
      stanceSamples++;
      feetFromCut = Math.max(feetFromCut, 100 * p.distanceTo(feet.shown[i].getWorldPosition(_p2)));
    });
    feet.seen = dt > 0;
  }

  /** Records the plot's values and the largest bone turn since the last frame, per copy. */
  function sample(dt) {
    for (let i = 0; i < 2; i++) {
      const copy = character.copies[i];
      character.roots[i].updateMatrixWorld(true);
      let jump = 0;
      copy.bones.forEach((bone, b) => {
        _q.fromArray(copy.quaternions, 4 * b);
        if (copy.sampled) jump = Math.max(jump, bone.quaternion.angleTo(_q));
        bone.quaternion.toArray(copy.quaternions, 4 * b);
      });
      copy.hipsBone.getWorldQuaternion(_q);
      const speed = copy.sampled && dt > 0 ? _q.angleTo(copy.hips) / dt : 0;
      copy.hips.copy(_q);
      copy.jump = jump;
      copy.sampled = true;
      worstJump[i] = Math.max(worstJump[i], jump);
      series[1 + i].push(100 * copy.foot.getWorldPosition(_p).y);
      series[3 + i].push(speed);
    }
    series[0].push(time);
    if (series[0].length > HISTORY) for (const s of series) s.shift();
  }

  // ---------------------------------------------------------------- panel
  gui.add(params, 'character', ['Fox', 'Humanoid']).name('character').onChange((name) => {
    message = '';
    useCharacter(name).catch((error) => { message = `${name}: ${error.message ?? error}`; });
  });
  let clipControl = gui.add(params, 'clip', ['Survey', 'Walk', 'Run']).name('clip').onChange(switchTo);
  gui.add(params, 'halfLife', 0, 0.5, 0.01).name('half-life (s)').onChange((v) => { if (character) character.inertializer.halfLife = v; });
  gui.add(params, 'holdFeet').name('hold stance feet').onChange(() => {
    if (!character) return;
    character.inertializer.dispose();
    character.inertializer = makeInertializer(character.mixers[0]);
  });
  gui.add(params, 'fadeTime', 0, 1, 0.05).name('cross-fade (s)');
  gui.add(params, 'rapid').name('rapid switching');
  gui.add(params, 'every', 0.05, 1, 0.05).name('every (s)');
  const onKey = (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.target instanceof HTMLInputElement) return;
    const name = character?.names.find((n) => n[0].toLowerCase() === event.key.toLowerCase());
    if (name) switchTo(name);
  };
  window.addEventListener('keydown', onKey);

  await useCharacter('Fox');

  return {
    update(dt) {
      if (!character) return;
      time += dt;
      sinceSwitch += dt;
      if (params.rapid) {
        rapidClock += dt;
        if (rapidClock >= params.every) {
          rapidClock = 0;
          rapidIndex = (rapidIndex + 1) % character.names.length;
          switchTo(character.names[rapidIndex]);
        }
      }
      // Holding feet: the characters walk at the clip's speed (the camera follows), for stance is read in the world.
      const step = params.holdFeet ? character.speeds[character.current] * dt : 0;
      travelled += step;
      for (const root of [...character.roots, character.cut.root]) root.position.z = travelled;
      camera.position.z += step;
      controls.target.z += step;
      for (const m of [...character.mixers, character.cutMixer]) m.update(dt);
      character.inertializer.update(dt);
      measureFeet(dt);
      sample(dt);
      if (series[0].length % 6 === 0) for (const [i, plot] of plots.entries()) plot.setData([series[0], series[1 + 2 * i], series[2 + 2 * i]]);
    },
    state() {
      return {
        character: params.character,
        clip: character?.current ?? null,
        names: character?.names ?? [],
        halfLife: character?.inertializer.halfLife ?? params.halfLife,
        fadeTime: params.fadeTime,
        transitions,
        sinceSwitch,
        // The largest turn of a bone's local rotation (rad) in the last frame, and since the state was last read
        // (each read starts it again), inertialized and cross-fade.
        jump: character ? character.copies.map((c) => c.jump) : [0, 0],
        worstJump: worstJump.splice(0, 2, 0, 0),
        footHeight: [series[1].at(-1) ?? 0, series[2].at(-1) ?? 0],
        hipsSpeed: [series[3].at(-1) ?? 0, series[4].at(-1) ?? 0],
        samples: series[0].length,
        holdFeet: params.holdFeet,
        // The largest distance (cm) of a stance foot of the new clip from where the cut puts it, from half a
        // half-life after the last switch on, and how many stance-foot samples that took.
        feetFromCut,
        stanceSamples,
        message,
      };
    },
    dispose() {
      window.removeEventListener('keydown', onKey);
      if (character) dropCharacter();
      for (const plot of plots) plot.destroy();
    },
  };
}
