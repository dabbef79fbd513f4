// Spring bones (docs/rig/springs.md) at a simulated update rate: two humanoids sway
// their hips (a turn and a hop) under their idle clip, each with hair, a tail and a
// skirt of spring chains, the skirt on capsule colliders round the thighs. On the
// left, IKRig's springs constraint; on the right, a ghost running three-vrm's
// VRMSpringBoneManager with the same VRM parameters. Hidden copies of both run at
// 60 Hz, and the panel reads how far each shown tip is from its own 60 Hz: ikpd's
// stays within a millimetre at any rate, three-vrm's moves by centimetres.
import * as THREE from 'three/webgpu';
import { VRMSpringBoneCollider, VRMSpringBoneColliderShapeCapsule, VRMSpringBoneJoint, VRMSpringBoneManager } from '@pixiv/three-vrm-springbone';
import { colors, ghostMaterial, setupStage } from '../lib/stage.js';
import { createHumanoid } from '../lib/humanoid.js';
import { disposeModel } from '../lib/sampleCharacters.js';

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
  const lines = [];
  for (const [i, h] of [humans[0], humans[1]].entries()) {
    for (const chain of Object.values(h.chains).flat()) {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * chain.length), 3));
      const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color: i === 0 ? colors.up : colors.boneAlt }));
      line.frustumCulled = false;
      scene.add(line);
      lines.push({ line, chain });
    }
  }
  const _p = new THREE.Vector3();
  function drawLines() {
    for (const { line, chain } of lines) {
      const a = line.geometry.attributes.position;
      chain.forEach((bone, k) => { bone.getWorldPosition(_p); a.setXYZ(k, _p.x, _p.y, _p.z); });
      a.needsUpdate = true;
    }
  }

  const params = { rate: 30, playing: true };
  const clocks = [0, 0]; // simulated time of the shown pair and of the 60 Hz pair
  let time = 0;
  const gaps = [0, 0]; // the largest tip distance (m) from its own 60 Hz, ikpd and three-vrm, at shared instants
  const tips = (h) => Object.values(h.chains).flat().map((chain) => h.root.worldToLocal(chain[chain.length - 1].getWorldPosition(new THREE.Vector3())));

  function stepPair(pair, dt, t) {
    for (const i of pair) {
      const h = humans[i];
      h.mixer.update(dt);
      move(h, t);
      h.root.updateMatrixWorld(true);
      sims[i].step(dt);
    }
  }

  gui.add(params, 'rate', RATES).name('update rate (Hz)').onChange(() => { gaps[0] = gaps[1] = 0; });
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
      if (Math.abs(clocks[0] - clocks[1]) < 1e-6 && clocks[0] > 0.5) {
        for (const [k, [shown, reference]] of [[0, 2], [1, 3]].entries()) {
          const a = tips(humans[shown]), b = tips(humans[reference]);
          gaps[k] = Math.max(gaps[k], ...a.map((p, j) => p.distanceTo(b[j])));
        }
      }
      drawLines();
      readout.textContent = `at ${params.rate} Hz: ikpd ${(gaps[0] * 1e3).toFixed(2)} mm, three-vrm ${(gaps[1] * 1e3).toFixed(1)} mm`;
    },
    state() {
      return { rate: params.rate, time: clocks[0], gaps: { ikpd: gaps[0], threeVrm: gaps[1] }, chains: lines.length / 2 };
    },
    dispose() {
      for (const s of sims) s.dispose();
      for (const { line } of lines) { line.geometry.dispose(); line.material.dispose(); }
      for (const h of humans) disposeModel(h.root); // the ghost's material with it
    },
  };
}
