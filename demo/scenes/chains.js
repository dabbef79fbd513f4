// N-bone chains (docs/ik/chains.md): the same five-bone chain three times, side by
// side — ikpd's CCD and FABRIK through ikpd/three's ChainIK, and three.js's own
// CCDIKSolver — reaching for the same target (the same offset from each root).
// Joint limits (hinge or cone), iterations and tolerance apply to all three;
// the panel reads out each solver's error |tip − target| and the iterations it
// used. An eye on a post follows the target through ikpd/three's AimIK.
import * as THREE from 'three/webgpu';
import { CCDIKSolver } from 'three/addons/animation/CCDIKSolver.js';
import { boneMesh, colors, handle, setupStage, standard } from '../lib/stage.js';

const deg = THREE.MathUtils.degToRad;
const LENGTHS = [0.45, 0.4, 0.35, 0.3, 0.25];
const CHAIN_LENGTH = LENGTHS.reduce((a, b) => a + b, 0);
const ROOT_Y = 0.35;
const REST_BEND = deg(12); // each joint's rest bend about Z, so the chain starts curled
const SOLVERS = [
  { key: 'ccd', name: 'CCD (ikpd)', x: -1.8 },
  { key: 'fabrik', name: 'FABRIK (ikpd)', x: 0 },
  { key: 'three', name: 'CCDIKSolver (three.js)', x: 1.8 },
];

/** A chain of +Y bones at `x` (root on a pedestal), its tip a bone of its own. */
function buildChain(scene, x, color) {
  const pedestal = new THREE.Mesh(new THREE.CylinderGeometry(0.12, 0.16, ROOT_Y, 20), standard(0x3d424c, { flatShading: false }));
  pedestal.position.set(x, ROOT_Y / 2, 0);
  pedestal.castShadow = pedestal.receiveShadow = true;
  scene.add(pedestal);
  const bones = [];
  let parent = null;
  for (let i = 0; i <= LENGTHS.length; i++) {
    const bone = new THREE.Bone();
    bone.name = i < LENGTHS.length ? `bone${i}` : 'tip';
    if (parent) {
      bone.position.set(0, LENGTHS[i - 1], 0);
      parent.add(bone);
    } else {
      bone.position.set(x, ROOT_Y, 0);
      scene.add(bone);
    }
    if (i < LENGTHS.length) bone.add(boneMesh(LENGTHS[i], { axis: 'y', color, jointRadius: 0.05 - i * 0.005 }));
    bones.push(bone);
    parent = bone;
  }
  const tipMarker = new THREE.Mesh(new THREE.SphereGeometry(0.03, 12, 8), new THREE.MeshBasicMaterial({ color: colors.accent }));
  bones.at(-1).add(tipMarker);
  return bones;
}

/** The rest ("animation") pose: every joint bent a little about Z. */
function restPose(bones) {
  for (let i = 0; i < bones.length; i++) bones[i].quaternion.setFromAxisAngle(new THREE.Vector3(0, 0, 1), i === 0 ? 0 : REST_BEND);
}

export async function create(ctx) {
  const { scene, camera, controls, ikpd, ikpdThree } = ctx;
  setupStage(ctx);
  ctx.bounds.set(new THREE.Vector3(-1.6, 0.05, -1.6), new THREE.Vector3(1.6, 2.6, 1.6));
  camera.position.set(0.1, 2.7, 7.4);
  controls.target.set(0.1, 1.25, 0);

  const params = {
    limits: 'none',
    limitAngle: 45,
    iterations: 20,
    tolerance: 1e-3,
    fromRest: true,
    orbit: false,
  };

  const solvers = SOLVERS.map((s, i) => ({ ...s, bones: buildChain(scene, s.x, i === 2 ? colors.boneAlt : colors.bone), error: 0, iterations: 0, ms: 0 }));
  for (const s of solvers) {
    restPose(s.bones);
    ctx.label(s.bones[0], s.name, [0, -0.55, 0.35]);
  }
  scene.updateMatrixWorld(true);

  // The target: the draggable handle sets the offset from the middle root; each chain gets the same offset from its own root.
  const target = ctx.draggable('target', handle(colors.target, 0.07));
  target.position.set(0.75, 1.45, 0.35);
  scene.add(target);
  const targetMaterial = target.material;
  for (const s of solvers) {
    s.target = new THREE.Object3D();
    scene.add(s.target);
    if (s.x !== 0) {
      const copy = new THREE.Mesh(target.geometry, new THREE.MeshBasicMaterial({ color: colors.target, transparent: true, opacity: 0.6 }));
      s.target.add(copy);
    }
  }
  function placeTargets() {
    for (const s of solvers) s.target.position.set(target.position.x + s.x, target.position.y, target.position.z);
    scene.updateMatrixWorld(true);
  }
  placeTargets();

  // ---------------------------------------------------------------- solvers
  const helpers = {
    ccd: new ikpdThree.ChainIK(ikpd, solvers[0].bones, { target: solvers[0].target.position, method: 'ccd' }),
    fabrik: new ikpdThree.ChainIK(ikpd, solvers[1].bones, { target: solvers[1].target.position, method: 'fabrik' }),
  };
  // three.js's CCDIKSolver works on a skeleton: the chain, its tip and a target bone.
  const threeBones = solvers[2].bones;
  const targetBone = new THREE.Bone();
  scene.add(targetBone);
  const skeleton = new THREE.Skeleton([...threeBones, targetBone]);
  const tipIndex = threeBones.length - 1;
  const ccdLinks = threeBones.slice(0, -1).map((_, i) => ({ index: tipIndex - 1 - i })); // tip's parent first
  const ik = { target: threeBones.length, effector: tipIndex, links: ccdLinks, iteration: 1 };
  const threeSolver = new CCDIKSolver({ skeleton }, [ik]);

  /** Per-bone limits for ikpd (root first) and the matching rotationMin/Max for CCDIKSolver. */
  function applyLimits() {
    const a = deg(params.limitAngle);
    let limits = null;
    if (params.limits === 'hinge') limits = LENGTHS.map(() => ({ type: 'euler', min: [0, 0, -a], max: [0, 0, a] }));
    if (params.limits === 'cone') limits = LENGTHS.map(() => ({ type: 'cone', angle: a }));
    helpers.ccd.limits = limits;
    helpers.fabrik.limits = limits;
    for (const link of ccdLinks) {
      // CCDIKSolver has Euler limits only: a hinge is the same; a cone becomes a box of ±angle on X and Z.
      if (params.limits === 'none') {
        delete link.rotationMin;
        delete link.rotationMax;
      } else {
        const xy = params.limits === 'hinge' ? 0 : a;
        const y = params.limits === 'hinge' ? 0 : Math.PI;
        link.rotationMin = new THREE.Vector3(-xy, -y, -a);
        link.rotationMax = new THREE.Vector3(xy, y, a);
      }
    }
  }
  applyLimits();

  const _tip = new THREE.Vector3();
  const tipError = (s) => s.bones.at(-1).getWorldPosition(_tip).distanceTo(s.target.position);

  function solve() {
    const tolerance = params.tolerance * CHAIN_LENGTH;
    for (const s of solvers) {
      if (params.fromRest) restPose(s.bones);
      s.bones[0].updateMatrixWorld(true);
      const start = performance.now();
      if (s.key === 'three') {
        // One CCD sweep per call, stopping like ikpd does: once the tip is within tolerance.
        targetBone.position.copy(s.target.position);
        targetBone.updateMatrixWorld(true);
        let used = 0;
        while (used < params.iterations && tipError(s) > tolerance) {
          threeSolver.update();
          used++;
        }
        s.iterations = used;
      } else {
        const helper = helpers[s.key];
        helper.iterations = params.iterations;
        helper.tolerance = params.tolerance;
        helper.update();
        s.iterations = helper.iterationsRun;
      }
      const ms = performance.now() - start;
      s.ms = s.ms ? s.ms * 0.9 + ms * 0.1 : ms;
      s.bones[0].updateMatrixWorld(true);
      s.error = tipError(s);
      s.reached = s.error <= tolerance;
    }
  }

  // ---------------------------------------------------------------- the eye (AimIK)
  const eye = new THREE.Group();
  eye.position.set(-2.9, 1.0, 0.6);
  const post = new THREE.Mesh(new THREE.CylinderGeometry(0.03, 0.05, 0.88, 12), standard(0x30343c));
  post.position.set(-2.9, 0.44, 0.6);
  scene.add(post, eye);
  const ball = new THREE.Mesh(new THREE.SphereGeometry(0.16, 24, 16), standard(0xf2efe8, { flatShading: false, roughness: 0.3 }));
  ball.castShadow = true;
  const iris = new THREE.Mesh(new THREE.CircleGeometry(0.075, 24), new THREE.MeshBasicMaterial({ color: 0x3cb4ff }));
  iris.position.z = 0.161;
  const pupil = new THREE.Mesh(new THREE.CircleGeometry(0.035, 20), new THREE.MeshBasicMaterial({ color: 0x111111 }));
  pupil.position.z = 0.162;
  eye.add(ball, iris, pupil);
  const aim = new ikpdThree.AimIK(ikpd, eye, { target: target.position, forward: '+z' });
  ctx.label(post, 'AimIK eye', [0, -0.62, 0]);

  // ---------------------------------------------------------------- GUI and panel
  const gui = ctx.gui;
  gui.add(params, 'limits', ['none', 'hinge', 'cone']).name('joint limits').onChange(applyLimits);
  ctx.enableWhen(gui.add(params, 'limitAngle', 5, 180, 1).name('limit angle (°)').onChange(applyLimits), () => params.limits !== 'none');
  gui.add(params, 'iterations', 1, 100, 1).name('max iterations');
  gui.add(params, 'tolerance', 1e-4, 0.05, 1e-4).name('tolerance (× length)');
  gui.add(params, 'fromRest').name('start from rest pose each frame');
  gui.add(params, 'orbit').name('move the target');

  const panel = ctx.panel('Solvers', 'bottom-right');
  const table = document.createElement('div');
  panel.appendChild(table);

  let time = 0;
  solve();
  return {
    update(dt) {
      if (params.orbit) {
        time += dt;
        target.position.set(Math.sin(time * 0.8) * 1.0, 1.2 + Math.sin(time * 1.3) * 0.6, Math.cos(time * 0.8) * 0.6);
      }
      placeTargets();
      solve();
      aim.update();
      const allReached = solvers.every((s) => s.reached);
      targetMaterial.emissive.setHex(allReached ? colors.reached : colors.target);
      targetMaterial.color.copy(targetMaterial.emissive);
      const tolerance = params.tolerance * CHAIN_LENGTH;
      table.innerHTML = `<table class="readout"><tr><th></th><th>|tip − target|</th><th>iterations</th><th>ms</th></tr>${solvers.map((s) => `<tr><td>${s.name}</td>`
        + `<td><span class="status-pill ${s.reached ? 'ok' : 'no'}">${s.error.toFixed(4)}</span></td><td>${s.iterations} / ${params.iterations}</td><td>${s.ms.toFixed(3)}</td></tr>`).join('')}</table>`
        + `tolerance ${tolerance.toFixed(4)} (${params.tolerance} × chain length ${CHAIN_LENGTH.toFixed(2)})`
        + `${params.limits === 'cone' ? '<br>CCDIKSolver has Euler limits only: its “cone” is a box of ±angle on X and Z.' : ''}`;
    },
    state() {
      return {
        target: target.position.toArray(),
        chainLength: CHAIN_LENGTH,
        tolerance: params.tolerance * CHAIN_LENGTH,
        solvers: solvers.map((s) => ({ key: s.key, name: s.name, error: s.error, iterations: s.iterations, reached: s.reached })),
        rotations: solvers.map((s) => s.bones.map((b) => b.quaternion.toArray())),
        eyeForward: new THREE.Vector3(0, 0, 1).applyQuaternion(eye.quaternion).toArray(),
      };
    },
    dispose() {
      aim.dispose(); // its prepared solver owns WASM memory
      helpers.ccd.dispose();
      helpers.fabrik.dispose();
    },
  };
}
