// Pseudo three-bone IK (docs/ik/pseudo-three-bone.md) and grounding
// (docs/rig/grounding.md): a procedural quadruped trots toward a draggable lure
// over uneven ground. Its trot (demo/lib/gait.js) is authored on flat ground:
// each leg (hip → knee → ankle → toe, +Y bones) is posed by ikpd/three's
// PseudoThreeBoneIK so the toe steps where the gait puts it, the foot keeping
// its animated posture (blend 1) or its posture relative to the shin (blend
// 0). An IKRig 'grounding' constraint with four legs then stands the toes on
// the hills (the ground is a function of x and z here) and pitches the pelvis
// and the chest to the slope.
import * as THREE from 'three/webgpu';
import { PseudoThreeBoneIK } from 'ikpd/three';
import { boneMesh, colors, handle, setupStage, standard } from '../lib/stage.js';
import { createGait, liftAt, updateGait } from '../lib/gait.js';

/** Smooth rolling hills. */
export function groundHeight(x, z) {
  return 0.22 * Math.sin(0.8 * x + 0.4) * Math.cos(0.6 * z) + 0.08 * Math.sin(2.1 * x + 1.3 * z) + 0.05 * Math.cos(2.9 * z - 0.7 * x);
}

// Leg rest shapes in body space (forward +Z, up +Y): hip, knee, ankle, toe.
const FRONT = [[0, 0, 0], [0, -0.3, -0.05], [0, -0.56, 0.02], [0, -0.7, 0.1]];
const HIND = [[0, 0, 0], [0, -0.26, 0.1], [0, -0.5, -0.06], [0, -0.7, 0.02]];
// Hind legs first (under the pelvis), then the front ones (under the chest): the grounding's leg order.
const HIPS = [
  { name: 'LH', x: 0.2, z: -0.5, shape: HIND, pair: 1 },
  { name: 'RH', x: -0.2, z: -0.5, shape: HIND, pair: 0 },
  { name: 'LF', x: 0.2, z: 0.52, shape: FRONT, pair: 0 },
  { name: 'RF', x: -0.2, z: 0.52, shape: FRONT, pair: 1 },
];
const TOE_PAD = 0.035; // the toe pad's radius: the toe joint's height above its sole
const BODY_HEIGHT = 0.7 + TOE_PAD; // the hips above the authored ground in the rest pose: toes on it
const CROUCH = 0.06; // the trot carries the hips this much lower, so the legs have room to reach down

/** The hills' normal at (x, z) (finite differences of groundHeight). */
function groundNormal(x, z, out) {
  const e = 0.01;
  return out.set(groundHeight(x - e, z) - groundHeight(x + e, z), 2 * e, groundHeight(x, z - e) - groundHeight(x, z + e)).normalize();
}
const _normal = new THREE.Vector3();
/** The ground as the grounding constraint takes it: a function of the sole point. */
const groundAt = (x, y, z) => ({ height: groundHeight(x, z), normal: groundNormal(x, z, _normal) });

const _y = new THREE.Vector3(0, 1, 0);
const _dir = new THREE.Vector3();
const _m = new THREE.Matrix4();
const _q = new THREE.Quaternion();

/** A chain of THREE.Bone under `parent` through body-space points; each bone's +Y points at its child. */
function buildLeg(parent, origin, points, color) {
  const bones = [];
  const world = [];
  points.forEach((p, i) => {
    const bone = new THREE.Bone();
    const position = new THREE.Vector3(...p).add(origin);
    const next = points[i + 1] ?? points[i - 1].map((v, k) => 2 * p[k] - v); // toe: continue the foot
    const to = new THREE.Vector3(...next).add(origin);
    _dir.subVectors(to, position).normalize();
    // Bone frame: +Y along the bone, +X to the body's side (hinge axis).
    const x = new THREE.Vector3(1, 0, 0);
    const z = new THREE.Vector3().crossVectors(x, _dir).normalize();
    x.crossVectors(_dir, z).normalize();
    _m.makeBasis(x, _dir, z);
    const q = new THREE.Quaternion().setFromRotationMatrix(_m);
    world.push({ position, q });
    if (i === 0) {
      bone.position.copy(position);
      bone.quaternion.copy(q);
      parent.add(bone);
    } else {
      const prev = world[i - 1];
      _q.copy(prev.q).invert();
      bone.position.copy(position).sub(prev.position).applyQuaternion(_q);
      bone.quaternion.copy(_q).multiply(q);
      bones[i - 1].add(bone);
    }
    if (i < points.length - 1) {
      const length = new THREE.Vector3(...points[i + 1]).distanceTo(new THREE.Vector3(...p));
      bone.add(boneMesh(length, { axis: 'y', color, jointRadius: 0.035 - i * 0.005 }));
    }
    bones.push(bone);
  });
  const toePad = new THREE.Mesh(new THREE.SphereGeometry(TOE_PAD, 12, 8), standard(0x3a3f48, { flatShading: false }));
  bones[3].add(toePad);
  return bones;
}

export async function create(ctx) {
  const { scene, camera, controls, ikpd, ikpdThree } = ctx;
  setupStage(ctx, { ground: false, size: 16, shadowExtent: 6 });
  camera.position.set(-2.6, 1.9, 4.3);
  controls.target.set(0, 0.5, 0);

  // Uneven ground.
  const groundGeometry = new THREE.PlaneGeometry(32, 32, 128, 128).rotateX(-Math.PI / 2);
  const position = groundGeometry.attributes.position;
  for (let i = 0; i < position.count; i++) position.setY(i, groundHeight(position.getX(i), position.getZ(i)));
  groundGeometry.computeVertexNormals();
  const ground = new THREE.Mesh(groundGeometry, new THREE.MeshStandardMaterial({ color: 0x3b4a3a, roughness: 0.95, flatShading: true }));
  ground.receiveShadow = true;
  scene.add(ground);

  // Body: the root walks on its own flat ground (yaw only); the pelvis (hind hips) and the chest
  // (front hips) are bones the grounding drops, raises and pitches to the slope.
  const body = new THREE.Group();
  scene.add(body);
  const pelvis = new THREE.Bone();
  pelvis.name = 'pelvis';
  pelvis.position.set(0, BODY_HEIGHT, HIPS[0].z);
  const chest = new THREE.Bone();
  chest.name = 'chest';
  chest.position.set(0, 0, HIPS[2].z - HIPS[0].z);
  pelvis.add(chest);
  body.add(pelvis);
  const torsoFrame = new THREE.Group(); // the torso's meshes, in the body's frame at the hips' height
  torsoFrame.position.set(0, 0, -HIPS[0].z);
  pelvis.add(torsoFrame);
  const headFrame = new THREE.Group();
  headFrame.position.set(0, 0, -HIPS[2].z);
  chest.add(headFrame);
  const torso = new THREE.Mesh(new THREE.CapsuleGeometry(0.2, 0.9, 8, 20).rotateX(Math.PI / 2), standard(0xc9a27a, { flatShading: false }));
  torso.scale.set(1.15, 0.95, 1);
  torso.castShadow = true;
  torsoFrame.add(torso);
  const neck = new THREE.Mesh(new THREE.CapsuleGeometry(0.09, 0.3, 6, 12), torso.material);
  neck.position.set(0, 0.2, 0.66);
  neck.rotation.x = 0.7;
  neck.castShadow = true;
  headFrame.add(neck);
  const head = new THREE.Mesh(new THREE.SphereGeometry(0.12, 24, 16), torso.material);
  head.position.set(0, 0.36, 0.8);
  head.castShadow = true;
  headFrame.add(head);
  const snout = new THREE.Mesh(new THREE.CapsuleGeometry(0.06, 0.12, 6, 12).rotateX(Math.PI / 2), torso.material);
  snout.position.set(0, -0.03, 0.13);
  head.add(snout);
  const nose = new THREE.Mesh(new THREE.SphereGeometry(0.025, 12, 8), standard(0x222222, { flatShading: false }));
  nose.position.set(0, -0.01, 0.24);
  head.add(nose);
  for (const side of [-1, 1]) {
    const ear = new THREE.Mesh(new THREE.ConeGeometry(0.045, 0.12, 8), standard(0x8a6440, { flatShading: false }));
    ear.position.set(side * 0.07, 0.11, -0.02);
    ear.rotation.z = -side * 0.35;
    head.add(ear);
  }
  const tail = new THREE.Mesh(new THREE.CapsuleGeometry(0.03, 0.4, 4, 8), torso.material);
  tail.position.set(0, 0.12, -0.72);
  tail.rotation.x = -0.9;
  torsoFrame.add(tail);

  const legs = HIPS.map((h) => {
    const bones = buildLeg(h.z < 0 ? pelvis : chest, new THREE.Vector3(h.x, 0, 0), h.shape, colors.bone);
    const rest = bones.map((b) => b.quaternion.clone());
    const target = new THREE.Object3D();
    scene.add(target);
    const marker = new THREE.Mesh(new THREE.RingGeometry(0.035, 0.05, 20).rotateX(-Math.PI / 2), new THREE.MeshBasicMaterial({ color: colors.target, transparent: true, opacity: 0.8 }));
    target.add(marker);
    return { ...h, bones, rest, target, marker, ik: null };
  });

  // The lure stays on the ground patch.
  ctx.bounds.set(new THREE.Vector3(-15, 0, -15), new THREE.Vector3(15, 1, 15));
  const lure = ctx.draggable('lure', handle(colors.accent, 0.09), { showY: false });
  lure.position.set(2.5, 0, 1.5);
  scene.add(lure);

  const params = { ik: true, grounding: true, blend: 0.5, variant: 'relative', endLimit: 180, speed: 0.9, stride: 0.28, lift: 0.12, showTargets: true, weight: 1 };
  const gui = ctx.gui;
  gui.add(params, 'ik').name('IK on');
  gui.add(params, 'grounding').name('grounding on (off → blend out)').onChange((v) => { grounding.enabled = v; });
  const ikOn = () => params.ik;
  ctx.enableWhen(gui.add(params, 'blend', 0, 1, 0.01).name('blend (ankle posture)'), ikOn);
  ctx.enableWhen(gui.add(params, 'variant', ['relative', 'followMid']), ikOn);
  ctx.enableWhen(gui.add(params, 'endLimit', 0, 180, 1).name('foot limit (°)'), ikOn);
  ctx.enableWhen(gui.add(params, 'weight', 0, 1, 0.01), ikOn);
  gui.add(params, 'speed', 0, 2, 0.01);
  gui.add(params, 'stride', 0.1, 0.5, 0.01);
  gui.add(params, 'lift', 0, 0.3, 0.01).name('step height');
  gui.add(params, 'showTargets').name('foot targets');

  // Body state.
  const state = { x: 0, z: 0, heading: Math.atan2(lure.position.x, lure.position.z), speed: 0 };
  const home = new THREE.Vector3();

  function placeBody(dt) {
    const dx = lure.position.x - state.x;
    const dz = lure.position.z - state.z;
    const distance = Math.hypot(dx, dz);
    const desired = Math.atan2(dx, dz);
    let turn = desired - state.heading;
    turn = Math.atan2(Math.sin(turn), Math.cos(turn));
    state.heading += THREE.MathUtils.clamp(turn, -1.6 * dt, 1.6 * dt);
    const wanted = distance > 0.9 ? params.speed * Math.max(0, Math.cos(turn)) : 0;
    state.speed += (wanted - state.speed) * Math.min(1, dt * 3);
    state.x += Math.sin(state.heading) * state.speed * dt;
    state.z += Math.cos(state.heading) * state.speed * dt;
    // The root's (authored, flat) ground: the mean height under the four hips; the grounding does the rest.
    const s = Math.sin(state.heading);
    const c = Math.cos(state.heading);
    const at = (lx, lz) => groundHeight(state.x + c * lx + s * lz, state.z - s * lx + c * lz);
    const mean = (at(0.2, 0.5) + at(-0.2, 0.5) + at(0.2, -0.5) + at(-0.2, -0.5)) / 4;
    body.position.set(state.x, mean, state.z);
    body.quaternion.setFromAxisAngle(_y, state.heading);
    body.updateMatrixWorld(true);
  }

  /** The toe's rest point: straight under its hip on the ground (x, z). */
  function restPoint(leg) {
    const toe = leg.shape[3];
    home.set(leg.x + toe[0], 0, leg.z + toe[2]).applyQuaternion(_q.setFromAxisAngle(_y, state.heading));
    return [home.x + state.x, home.z + state.z];
  }

  placeBody(0);
  let gait = createGait(legs.map(restPoint), legs.map((leg) => leg.pair));
  for (const leg of legs) {
    const [x, z] = restPoint(leg);
    leg.target.position.set(x, body.position.y + TOE_PAD, z);
    leg.ik = new PseudoThreeBoneIK(ikpd, leg.bones, { target: leg.target });
  }
  // Four legs on the hills: hind under the pelvis, front under the chest.
  // Over the skeleton below the body (not the body group itself): the rig's root is then the
  // walking body, whose flat y = 0 plane is the ground the trot is authored on.
  const rig = new ikpdThree.IKRig(ikpd, pelvis, { humanoid: 'none' });
  const grounding = rig.add('grounding', { legs: legs.map((leg) => leg.bones), pelvis, chest, ground: groundAt });
  const bodyRest = [pelvis.position.clone(), chest.position.clone()];

  /** Moves the body by dt and the feet with it (the gait sub-steps along the body's path). */
  function walk(dt) {
    const before = legs.map(restPoint);
    placeBody(dt);
    const after = legs.map(restPoint);
    const rests = (t) => before.map((b, i) => [b[0] + (after[i][0] - b[0]) * t, b[1] + (after[i][1] - b[1]) * t]);
    updateGait(gait, rests, dt, { stride: params.stride });
    legs.forEach((leg, i) => {
      const foot = gait.feet[i];
      const [x, z] = foot.position;
      // The trot as authored: toes on the root's flat ground, lifted in the swing.
      leg.target.position.set(x, body.position.y + TOE_PAD + liftAt(foot.swing) * params.lift, z);
      leg.marker.position.y = groundHeight(x, z) - leg.target.position.y + 0.005; // shown on the hills
    });
  }

  const follow = new THREE.Vector3();
  return {
    update(dt) {
      lure.position.y = groundHeight(lure.position.x, lure.position.z) + 0.09;
      walk(dt);
      // The camera follows the body (orbit controls keep working around it).
      follow.set(body.position.x, body.position.y - 0.25, body.position.z).sub(controls.target).multiplyScalar(Math.min(1, dt * 3));
      controls.target.add(follow);
      camera.position.add(follow);
      // The authored pose: pelvis and chest at rest, each leg reaching its gait target.
      pelvis.position.set(bodyRest[0].x, bodyRest[0].y - CROUCH, bodyRest[0].z);
      pelvis.quaternion.identity();
      chest.position.copy(bodyRest[1]);
      chest.quaternion.identity();
      for (const leg of legs) {
        leg.bones.forEach((b, i) => b.quaternion.copy(leg.rest[i]));
        leg.marker.visible = params.showTargets;
        if (!params.ik) continue;
        leg.ik.blend = params.blend;
        leg.ik.variant = params.variant;
        leg.ik.endLimit = THREE.MathUtils.degToRad(params.endLimit);
        leg.ik.weight = params.weight;
        leg.ik.update();
      }
      rig.update(dt);
    },
    state() {
      const solved = params.ik && params.weight > 0;
      return {
        body: body.position.toArray(),
        swings: gait.swings,
        stride: params.stride,
        // Largest horizontal foot-to-rest distance since the last reset.
        maxFootOffset: gait.maxOffset,
        legs: legs.map((leg) => ({
          target: leg.target.position.toArray(),
          rest: restPoint(leg),
          toe: leg.bones[3].getWorldPosition(new THREE.Vector3()).toArray(),
          // The solver's report of this frame's solve; null while IK is off or at weight 0 (nothing was solved).
          reached: solved ? leg.ik.reached : null,
          distance: solved ? leg.ik.distance : null,
        })),
        grounding: {
          enabled: grounding.enabled, reached: grounding.reached, distance: grounding.distance, pelvis: pelvis.position.toArray(), pitch: pelvis.rotation.x,
          // Each toe's sole (the toe less its pad) above the hills under it.
          soles: legs.map((leg) => { const toe = leg.bones[3].getWorldPosition(new THREE.Vector3()); return toe.y - TOE_PAD - groundHeight(toe.x, toe.z); }),
        },
      };
    },
    resetGaitStats() { gait.maxOffset = 0; },
    dispose() {
      for (const leg of legs) leg.ik?.dispose(); // each helper's prepared solver owns WASM memory
      rig.dispose();
    },
    reset() {
      state.x = 0;
      state.z = 0;
      state.speed = 0;
      state.heading = Math.atan2(lure.position.x, lure.position.z);
      placeBody(0);
      gait = createGait(legs.map(restPoint), legs.map((leg) => leg.pair));
    },
  };
}
