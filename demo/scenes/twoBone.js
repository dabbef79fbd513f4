// Two-bone arm (docs/ik/two-bone.md) through ikpd/three's TwoBoneIK on a THREE.Bone rig
// whose bones point along +Y (the Blender/glTF convention). Every frame the
// arm gets its "animation" pose (a slow idle sway), then IK runs on top.
import * as THREE from 'three/webgpu';
import { boneMesh, colors, guideLine, handle, setupStage, standard } from '../lib/stage.js';

const deg = THREE.MathUtils.degToRad;
const UPPER = 0.62;
const LOWER = 0.56;

function buildArm(scene) {
  const torso = new THREE.Mesh(new THREE.BoxGeometry(0.5, 0.8, 0.3), standard(0x4a505c));
  torso.position.set(-0.3, 1.45, 0);
  torso.castShadow = torso.receiveShadow = true;
  scene.add(torso);
  const head = new THREE.Mesh(new THREE.SphereGeometry(0.17, 24, 16), standard(0x4a505c, { flatShading: false }));
  head.position.set(-0.3, 2.05, 0);
  head.castShadow = true;
  scene.add(head);
  const stand = new THREE.Mesh(new THREE.CylinderGeometry(0.05, 0.05, 1.05, 12), standard(0x30343c));
  stand.position.set(-0.3, 0.525, 0);
  scene.add(stand);

  const shoulder = new THREE.Bone();
  shoulder.name = 'shoulder';
  shoulder.position.set(0.0, 1.72, 0);
  const elbow = new THREE.Bone();
  elbow.name = 'elbow';
  elbow.position.set(0, UPPER, 0);
  const wrist = new THREE.Bone();
  wrist.name = 'wrist';
  wrist.position.set(0, LOWER, 0);
  shoulder.add(elbow);
  elbow.add(wrist);
  scene.add(shoulder);

  shoulder.add(boneMesh(UPPER, { axis: 'y', jointRadius: 0.06 }));
  elbow.add(boneMesh(LOWER, { axis: 'y', jointRadius: 0.05 }));

  // Hand: palm, three curled fingers and an extended index finger whose tip is the effector.
  const skin = standard(0xe2c3a4, { flatShading: false, roughness: 0.7 });
  const palm = new THREE.Mesh(new THREE.BoxGeometry(0.09, 0.16, 0.04), skin);
  palm.position.set(0, 0.09, 0);
  palm.castShadow = true;
  wrist.add(palm);
  const fingerGeometry = new THREE.CapsuleGeometry(0.013, 0.1, 4, 8);
  for (let i = 0; i < 3; i++) {
    const finger = new THREE.Mesh(fingerGeometry, skin);
    finger.position.set(-0.028 + i * 0.028, 0.17, 0.025);
    finger.rotation.x = deg(80);
    finger.castShadow = true;
    wrist.add(finger);
  }
  const index = new THREE.Mesh(new THREE.CapsuleGeometry(0.014, 0.15, 4, 8), skin);
  index.position.set(0.035, 0.23, 0);
  index.rotation.z = deg(-12);
  index.castShadow = true;
  wrist.add(index);
  const fingertip = new THREE.Object3D();
  fingertip.name = 'fingertip';
  fingertip.position.set(0.052, 0.315, 0);
  wrist.add(fingertip);
  const tipMarker = new THREE.Mesh(new THREE.SphereGeometry(0.018, 12, 8), new THREE.MeshBasicMaterial({ color: colors.accent }));
  fingertip.add(tipMarker);

  return { shoulder, elbow, wrist, fingertip, tipMarker };
}

export async function create(ctx) {
  const { scene, camera, controls, ikpd } = ctx;
  setupStage(ctx);
  ctx.bounds.set(new THREE.Vector3(-2, 0.05, -2), new THREE.Vector3(3, 3.5, 2.5));
  camera.position.set(1.2, 2.1, 3.6);
  controls.target.set(0.5, 1.3, 0);

  const arm = buildArm(scene);
  const { shoulder, elbow, wrist, fingertip } = arm;

  // The "animation": a relaxed, bent arm with a slow sway.
  const restShoulder = new THREE.Quaternion().setFromEuler(new THREE.Euler(deg(10), 0, deg(-120)));
  const restElbow = new THREE.Quaternion().setFromEuler(new THREE.Euler(0, 0, deg(50)));
  const restWrist = new THREE.Quaternion().setFromEuler(new THREE.Euler(0, 0, deg(10)));
  const sway = new THREE.Quaternion();
  function animate(time) {
    sway.setFromEuler(new THREE.Euler(Math.sin(time * 0.7) * 0.05, 0, Math.sin(time * 0.9) * 0.04));
    shoulder.quaternion.copy(restShoulder).multiply(sway);
    elbow.quaternion.copy(restElbow);
    wrist.quaternion.copy(restWrist);
    elbow.position.set(0, UPPER, 0);
    wrist.position.set(0, LOWER, 0);
  }
  animate(0);
  scene.updateMatrixWorld(true);

  const target = ctx.draggable('target', handle(colors.target, 0.05));
  target.position.set(1.05, 1.25, 0.35);
  scene.add(target);
  const pole = ctx.draggable('pole', handle(colors.pole, 0.045));
  pole.position.set(0.6, 1.3, -0.9);
  scene.add(pole);
  const poleLine = guideLine(colors.pole, 0.35);
  scene.add(poleLine);

  // Reach sphere: upper + lower (times the stretch) from the shoulder, plus the fingertip's
  // offset from the wrist when the fingertip is the effector. Unit sphere, scaled per frame.
  const fingertipOffset = fingertip.position.length();
  const reach = new THREE.Mesh(
    new THREE.SphereGeometry(1, 32, 16),
    new THREE.MeshBasicMaterial({ color: 0x8fb8ff, wireframe: true, transparent: true, opacity: 0.06 }),
  );
  reach.position.copy(shoulder.position);
  reach.visible = false;
  scene.add(reach);

  const ik = new ctx.ikpdThree.TwoBoneIK(ikpd, [shoulder, elbow, wrist], {
    target,
    pole,
    effector: fingertip,
  });

  const params = {
    usePole: true,
    useEffector: true,
    bendDirection: 'auto',
    straightBend: 'positive',
    minAngle: 0,
    maxAngle: 180,
    soften: 0,
    maxStretch: 1,
    twist: 0,
    weight: 1,
    endRotation: 'world',
    tolerance: 1e-4,
    animate: true,
    showReach: false,
  };
  const gui = ctx.gui;
  gui.add(params, 'usePole').name('pole').onChange((v) => { pole.visible = v; poleLine.visible = v; });
  gui.add(params, 'bendDirection', ['auto', 'positive', 'negative']).name('bend direction');
  gui.add(params, 'straightBend', ['positive', 'negative']).name('straight tie-break');
  gui.add(params, 'minAngle', 0, 180, 1).name('min elbow angle (°)');
  gui.add(params, 'maxAngle', 0, 180, 1).name('max elbow angle (°)');
  gui.add(params, 'soften', 0, 1, 0.01);
  gui.add(params, 'maxStretch', 1, 2, 0.01).name('max stretch');
  gui.add(params, 'twist', -180, 180, 1).name('twist (°)');
  gui.add(params, 'useEffector').name('fingertip effector');
  gui.add(params, 'endRotation', ['world', 'relative', 'target']).name('hand rotation').onChange((v) => {
    ctx.draggables.target.mode = v === 'target' ? 'rotate' : 'translate';
    ctx.selectDraggable('target');
  });
  gui.add(params, 'weight', 0, 1, 0.01);
  gui.add(params, 'tolerance', 1e-5, 0.05, 1e-5);
  gui.add(params, 'animate').name('idle animation');
  gui.add(params, 'showReach').name('reach sphere').onChange((v) => { reach.visible = v; });

  const status = ctx.panel('Solver', 'bottom-right');
  const statusBody = document.createElement('div');
  status.appendChild(statusBody);
  const targetMaterial = target.material;

  const a = new THREE.Vector3();
  const b = new THREE.Vector3();
  const c = new THREE.Vector3();
  let time = 0;
  let elbowAngle = 0;
  let reachRadius = UPPER + LOWER;
  let gap = 0;
  return {
    update(dt) {
      if (params.animate) time += dt;
      animate(time);
      ik.pole = params.usePole ? pole : null;
      ik.effector = params.useEffector ? fingertip : null;
      ik.bendDirection = params.bendDirection;
      ik.straightBend = params.straightBend;
      ik.minAngle = deg(Math.min(params.minAngle, params.maxAngle));
      ik.maxAngle = deg(params.maxAngle);
      ik.soften = params.soften;
      ik.maxStretch = params.maxStretch;
      ik.twist = deg(params.twist);
      ik.weight = params.weight;
      ik.endRotation = params.endRotation;
      ik.tolerance = params.tolerance;
      ik.update();
      reachRadius = (UPPER + LOWER) * params.maxStretch + (params.useEffector ? fingertipOffset : 0);
      reach.scale.setScalar(reachRadius);
      // What the solver reports (nothing is solved at weight 0), and the measured gap to compare.
      const solved = params.weight > 0;
      const point = params.useEffector ? fingertip : wrist;
      gap = point.getWorldPosition(a).distanceTo(target.position);

      shoulder.getWorldPosition(a);
      elbow.getWorldPosition(b);
      wrist.getWorldPosition(c);
      elbowAngle = THREE.MathUtils.radToDeg(a.sub(b).angleTo(c.sub(b)));
      if (params.usePole) poleLine.set(elbow.getWorldPosition(b), pole.position);
      // Stretch: scale the bone meshes with the bone offsets.
      shoulder.children[0].scale.y = elbow.position.length() / UPPER;
      elbow.children[0].scale.y = wrist.position.length() / LOWER;
      const reached = solved && ik.reached;
      targetMaterial.emissive.setHex(reached ? colors.reached : colors.target);
      targetMaterial.color.copy(targetMaterial.emissive);
      const pill = solved ? `<span class="status-pill ${reached ? 'ok' : 'no'}">${reached ? 'reached' : 'out of reach'}</span> distance ${ik.distance.toFixed(4)}`
        : '<span class="status-pill off">IK off (weight 0)</span>';
      statusBody.innerHTML = `${pill}<br>measured ${params.useEffector ? 'fingertip' : 'wrist'} gap ${gap.toFixed(4)}`
        + `<br>elbow angle ${elbowAngle.toFixed(1)}° · stretch ${(elbow.position.length() / UPPER).toFixed(2)}×`;
    },
    state() {
      const solved = params.weight > 0;
      return {
        // The solver's report; null at weight 0, where nothing is solved.
        reached: solved ? ik.reached : null,
        distance: solved ? ik.distance : null,
        gap,
        reachRadius,
        panel: statusBody.textContent,
        elbowAngle,
        rotations: [shoulder, elbow, wrist].map((bone) => bone.quaternion.toArray()),
        fingertip: fingertip.getWorldPosition(new THREE.Vector3()).toArray(),
        target: target.position.toArray(),
      };
    },
    dispose() {
      ik.dispose(); // the helper's prepared solver owns WASM memory
    },
  };
}
