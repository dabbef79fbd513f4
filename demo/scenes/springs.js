// Spring bones (docs/rig/springs.md) at a simulated update rate: two humanoids sway
// their hips (a turn and a hop) under their idle clip, each with hair, a tail and a
// skirt of spring chains, the skirt on capsule colliders round the thighs. On the
// left, IKRig's springs constraint; on the right, a ghost running three-vrm's
// VRMSpringBoneManager with the same VRM parameters. Hidden copies of both run at
// 60 Hz, and the panel reads how far each shown tip is from its own 60 Hz: ikpd's
// stays within a millimetre at any rate, three-vrm's moves by centimetres. A .vrm
// dropped on the scene replaces the pair: its own spring bones on ikpd
// (`add('springs', { vrm })`) beside a copy on three-vrm's, turned and hopped the
// same way, the panel reading how far their tips are apart.
import * as THREE from 'three/webgpu';
import { VRMSpringBoneCollider, VRMSpringBoneColliderShapeCapsule, VRMSpringBoneJoint, VRMSpringBoneManager } from '@pixiv/three-vrm-springbone';
import { colors, ghostMaterial, setupStage } from '../lib/stage.js';
import { createHumanoid } from '../lib/humanoid.js';
import { disposeModel } from '../lib/sampleCharacters.js';
import { frameModel, listenForDrops, parseDropped } from '../lib/droppedModel.js';

const X = 0.55; // the ikpd character stands at -X, the ghost at +X
const RATES = [15, 30, 60, 144, 240];
// VRM parameters per group, and where each group's chains hang (in the parent bone's frame).
const GROUPS = {
  hair: { parent: 'head', stiffness: 1, dragForce: 0.4, gravityPower: 0.3, chains: 5, bones: 6, segment: 0.045, hitRadius: 0.01 },
  tail: { parent: 'hips', stiffness: 0.6, dragForce: 0.25, gravityPower: 0.2, chains: 1, bones: 8, segment: 0.07, hitRadius: 0.02 },
  skirt: { parent: 'hips', stiffness: 1.5, dragForce: 0.5, gravityPower: 0.5, chains: 8, bones: 4, segment: 0.06, hitRadius: 0.02 },
};
const GRAVITY = new THREE.Vector3(0, -1, 0);

// The chains' first bones: hair round the back of the head, the tail from the back of the hips, the skirt round the hips.
function chainStart(group, c, n) {
  if (group === 'hair') {
    const a = Math.PI * (0.15 + 0.7 * (c / (n - 1)));
    return { at: [0.09 * Math.cos(a), 0.1, -0.09 * Math.sin(a)], step: [0.3 * Math.cos(a), -1, -0.5 * Math.sin(a)] };
  }
  if (group === 'tail') return { at: [0, 0, -0.1], step: [0, -0.4, -1] };
  const a = (2 * Math.PI * c) / n;
  return { at: [0.13 * Math.sin(a), -0.02, 0.11 * Math.cos(a)], step: [0.35 * Math.sin(a), -1, 0.3 * Math.cos(a)] };
}

/** A humanoid playing its idle, with the spring chains as bones, and lines that draw them. */
function character(material) {
  const human = createHumanoid({ names: 'mixamo', material });
  const chains = {};
  for (const [group, g] of Object.entries(GROUPS)) {
    chains[group] = [];
    for (let c = 0; c < g.chains; c++) {
      const { at, step } = chainStart(group, c, g.chains);
      const dir = new THREE.Vector3(...step).normalize().multiplyScalar(g.segment);
      const chain = [];
      for (let k = 0; k <= g.bones; k++) {
        const bone = new THREE.Bone();
        if (k === 0) bone.position.set(...at);
        else bone.position.copy(dir);
        (k === 0 ? human.bones[g.parent] : chain[k - 1]).add(bone);
        chain.push(bone);
      }
      chains[group].push(chain);
    }
  }
  human.mixer = new THREE.AnimationMixer(human.root);
  human.mixer.clipAction(human.idle).play();
  human.chains = chains;
  // The thighs' capsules (offset to tail in the upper leg's frame): what the skirt rests on.
  human.thighs = ['leftUpperLeg', 'rightUpperLeg'].map((role) => ({
    joint: human.bones[role], offset: [0, 0, 0], tail: human.bones[role.replace('Upper', 'Lower')].position.clone().multiplyScalar(0.8).toArray(), radius: 0.075,
  }));
  return human;
}

/** The scripted motion at t: the hips turn and hop (the clip leaves them alone). */
function move(human, t) {
  human.bones.hips.rotation.set(0, 0.9 * Math.sin(1.3 * t) * Math.min(1, t), 0);
  human.bones.hips.position.y = human.hipsY + 0.12 * Math.max(0, Math.sin(2.2 * t)) ** 4;
}

function withIkpd(ikpd, IKRig, human) {
  const rig = new IKRig(ikpd, human.root);
  for (const [group, g] of Object.entries(GROUPS)) {
    rig.add('springs', {
      chains: human.chains[group], center: null, stiffness: g.stiffness, dragForce: g.dragForce, gravityPower: g.gravityPower, hitRadius: g.hitRadius,
      colliders: group === 'skirt' ? human.thighs.map((c) => ({ ...c, shape: 'capsule' })) : [],
    });
  }
  return { step: (dt) => rig.update(dt), dispose: () => rig.dispose() };
}

function withThreeVrm(human) {
  const manager = new VRMSpringBoneManager();
  const colliders = human.thighs.map(({ joint, offset, tail, radius }) => {
    const collider = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeCapsule({ offset: new THREE.Vector3(...offset), tail: new THREE.Vector3(...tail), radius }));
    joint.add(collider);
    return collider;
  });
  for (const [group, g] of Object.entries(GROUPS)) {
    const groups = group === 'skirt' ? [{ colliders }] : [];
    for (const chain of human.chains[group]) {
      for (let k = 0; k < chain.length - 1; k++) {
        const joint = new VRMSpringBoneJoint(chain[k], chain[k + 1], { stiffness: g.stiffness, dragForce: g.dragForce, gravityPower: g.gravityPower, gravityDir: GRAVITY, hitRadius: g.hitRadius }, groups);
        joint.center = human.root;
        manager.addJoint(joint);
      }
    }
  }
  human.root.updateMatrixWorld(true);
  manager.setInitState();
  return { step: (dt) => manager.update(dt), dispose: () => {} };
}

/** A VRMSpringBoneManager's chains as bone lists (as the springs import finds them: a joint continues the one whose child is its bone). */
function chainsOf(manager) {
  const joints = [...manager.joints];
  const byBone = new Map(joints.map((j) => [j.bone, j]));
  const continued = new Set(joints.filter((j) => j.child && byBone.has(j.child)).map((j) => byBone.get(j.child)));
  return joints.filter((j) => !continued.has(j)).map((first) => {
    const chain = [];
    let j = first;
    for (; j; j = j.child ? byBone.get(j.child) : undefined) chain.push(j.bone);
    const last = chain[chain.length - 1];
    const tail = byBone.get(last)?.child;
    return tail ? [...chain, tail] : chain;
  });
}

export async function create(ctx) {
  const { scene, camera, controls, gui, ikpd, ikpdThree } = ctx;
  setupStage(ctx);
  camera.position.set(0, 1.5, 3.4);
  controls.target.set(0, 1.0, 0);

  // Shown: ikpd (left) and three-vrm (right); hidden: both again at 60 Hz, the reference.
  const humans = [character(), character(ghostMaterial(0.4)), character(), character()];
  for (const h of humans) h.hipsY = h.bones.hips.position.y;
  humans[0].root.position.x = -X;
  humans[1].root.position.x = X;
  scene.add(humans[0].root, humans[1].root);
  ctx.label(humans[0].bones.head, 'ikpd springs', [0, 0.35, 0]);
  ctx.label(humans[1].bones.head, 'three-vrm', [0, 0.35, 0]);
  const sims = [withIkpd(ikpd, ikpdThree.IKRig, humans[0]), withThreeVrm(humans[1]), withIkpd(ikpd, ikpdThree.IKRig, humans[2]), withThreeVrm(humans[3])];

  // One line per chain, drawn from its bones' world positions.
  let lines = [];
  function addLines(pair) {
    for (const [i, h] of pair.entries()) {
      for (const chain of Object.values(h.chains).flat()) {
        const geometry = new THREE.BufferGeometry();
        geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * chain.length), 3));
        const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: i === 0 ? colors.up : colors.boneAlt }));
        line.frustumCulled = false;
        scene.add(line);
        lines.push({ line, chain });
      }
    }
  }
  function removeLines() {
    for (const { line } of lines) { scene.remove(line); line.geometry.dispose(); line.material.dispose(); }
    lines = [];
  }
  addLines([humans[0], humans[1]]);
  const _p = new THREE.Vector3(), _q = new THREE.Vector3();
  function drawLines() {
    for (const { line, chain } of lines) {
      const a = line.geometry.attributes.position;
      chain.forEach((bone, k) => { bone.getWorldPosition(_p); a.setXYZ(k, _p.x, _p.y, _p.z); });
      a.needsUpdate = true;
    }
  }

  // A dropped .vrm: two copies, its spring bones on ikpd (left) and on three-vrm's own manager (right).
  let dropped = null; // { name, humans: [ours, theirs], sims, gap, moved, start }
  let message = '';
  async function loadDropped(file) {
    const parsed = [];
    try {
      if (!/\.vrm$/i.test(file.name)) throw new Error('not a .vrm (the springs scene runs a VRM\'s spring bones)');
      parsed.push(await parseDropped(file), await parseDropped(file));
      if (!parsed[0].vrm) throw new Error('three-vrm read no VRM from it (VRMC_vrm meta and humanoid)');
      const manager = parsed[0].vrm.springBoneManager;
      if (!manager || manager.joints.size === 0) throw new Error(`it has no spring bones (${manager ? 'no joints' : 'no VRMC_springBone'})`);
      const pair = parsed.map(({ vrm, model }, i) => {
        frameModel(model);
        const root = new THREE.Group();
        root.name = file.name;
        root.add(model);
        root.position.x = i === 0 ? -X : X;
        root.updateMatrixWorld(true);
        const hips = vrm.humanoid.getRawBoneNode('hips');
        const chains = { vrm: chainsOf(vrm.springBoneManager) };
        return { root, vrm, chains, bones: { hips }, hipsY: hips.position.y, mixer: { update() {} } };
      });
      const rig = new ikpdThree.IKRig(ikpd, pair[0].root);
      rig.add('springs', { vrm: pair[0].vrm }); // three-vrm's update on this copy now does nothing
      pair[1].vrm.springBoneManager.setInitState(); // at its framed place
      const sims = [{ step: (dt) => rig.update(dt), dispose: () => rig.dispose() }, { step: (dt) => pair[1].vrm.springBoneManager.update(dt), dispose: () => {} }];
      if (dropped) unloadDropped();
      for (const h of [humans[0], humans[1]]) h.root.visible = false;
      scene.add(pair[0].root, pair[1].root);
      removeLines();
      addLines(pair);
      // moved: how far the springs swing ikpd's tips from where the hips alone would carry them (their rest places in the hips' frame).
      const hips = pair[0].bones.hips;
      const start = Object.values(pair[0].chains).flat().map((chain) => hips.worldToLocal(chain[chain.length - 1].getWorldPosition(new THREE.Vector3())));
      dropped = { name: file.name, humans: pair, sims, gap: 0, moved: 0, start };
      // The script starts over (both copies from their rest pose at t = 0), the built-in pair with it.
      time = clocks[0] = clocks[1] = 0;
      gaps[0] = gaps[1] = 0;
      message = '';
    } catch (error) {
      for (const { model } of parsed) disposeModel(model);
      message = `${file.name}: ${error.message ?? error}; the scene is unchanged`;
      throw error;
    }
  }
  function unloadDropped() {
    for (const sim of dropped.sims) sim.dispose();
    for (const h of dropped.humans) { scene.remove(h.root); disposeModel(h.root); }
    dropped = null;
  }
  const stopDrops = listenForDrops(ctx.canvas, loadDropped); // the message says why a file failed

  const params = { rate: 30, playing: true };
  const clocks = [0, 0]; // simulated time of the shown pair and of the 60 Hz pair
  let time = 0;
  const gaps = [0, 0]; // the largest tip distance (m) from its own 60 Hz, ikpd and three-vrm, at shared instants
  const tips = (h) => Object.values(h.chains).flat().map((chain) => h.root.worldToLocal(chain[chain.length - 1].getWorldPosition(new THREE.Vector3())));

  // Steps humans[i] (the shown pair's: the dropped VRM's when there is one).
  function stepPair(pair, dt, t) {
    for (const i of pair) {
      const h = dropped && i < 2 ? dropped.humans[i] : humans[i];
      h.mixer.update(dt);
      move(h, t);
      h.root.updateMatrixWorld(true);
      (dropped && i < 2 ? dropped.sims[i] : sims[i]).step(dt);
    }
  }

  gui.add(params, 'rate', RATES).name('update rate (Hz)').onChange(() => { gaps[0] = gaps[1] = 0; if (dropped) dropped.gap = 0; });
  gui.add(params, 'playing').name('playing');
  const panel = ctx.panel('Tip from its own 60 Hz motion', 'bottom-right');
  const readout = document.createElement('div');
  panel.appendChild(readout);

  return {
    update(dt) {
      if (!params.playing) return;
      time += dt;
      const step = 1 / params.rate;
      while (clocks[0] + step <= time + 1e-9) {
        clocks[0] += step;
        stepPair([0, 1], step, clocks[0]);
      }
      while (clocks[1] + 1 / 60 <= time + 1e-9) {
        clocks[1] += 1 / 60;
        stepPair([2, 3], 1 / 60, clocks[1]);
      }
      if (dropped) {
        const [a, b] = dropped.humans.map(tips);
        if (clocks[0] > 0.5) dropped.gap = Math.max(dropped.gap, ...a.map((p, j) => p.distanceTo(b[j])));
        const hips = dropped.humans[0].bones.hips, chains = Object.values(dropped.humans[0].chains).flat();
        dropped.moved = Math.max(dropped.moved, ...chains.map((chain, j) => chain[chain.length - 1].getWorldPosition(_p).distanceTo(hips.localToWorld(_q.copy(dropped.start[j])))));
      } else if (Math.abs(clocks[0] - clocks[1]) < 1e-6 && clocks[0] > 0.5) {
        for (const [k, [shown, reference]] of [[0, 2], [1, 3]].entries()) {
          const a = tips(humans[shown]), b = tips(humans[reference]);
          gaps[k] = Math.max(gaps[k], ...a.map((p, j) => p.distanceTo(b[j])));
        }
      }
      drawLines();
      readout.textContent = dropped
        ? `${dropped.name} at ${params.rate} Hz: ikpd's tips from three-vrm's ${(dropped.gap * 1e3).toFixed(1)} mm`
        : `at ${params.rate} Hz: ikpd ${(gaps[0] * 1e3).toFixed(2)} mm, three-vrm ${(gaps[1] * 1e3).toFixed(1)} mm`;
      if (message) readout.textContent += ` (${message})`;
    },
    state() {
      return {
        rate: params.rate, time: clocks[0], gaps: { ikpd: gaps[0], threeVrm: gaps[1] }, chains: lines.length / 2, message,
        dropped: dropped && { name: dropped.name, gap: dropped.gap, moved: dropped.moved, tips: dropped.start.length },
      };
    },
    dispose() {
      stopDrops();
      if (dropped) unloadDropped();
      for (const s of sims) s.dispose();
      removeLines();
      for (const h of humans) disposeModel(h.root); // the ghost's material with it
    },
  };
}
