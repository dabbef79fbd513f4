// One-bone aim (docs/ik/aim.md): the three methods side by side. Each bone starts
// from the same rest rotation every frame and aims its forward axis (+X, as
// in the reference convention) at the shared target; the RGB axes show how the methods differ
// in Y/Z. With the up target on, the bone rolls its up axis toward it.
import * as THREE from 'three/webgpu';
import { boneMesh, colors, createAxes, guideLine, handle, setupStage, standard } from '../lib/stage.js';

const METHODS = ['yawPitch', 'crossProduct', 'shortestArc'];
const AXES = { '+x': [1, 0, 0], '-x': [-1, 0, 0], '+y': [0, 1, 0], '-y': [0, -1, 0], '+z': [0, 0, 1], '-z': [0, 0, -1] };
const deg = THREE.MathUtils.degToRad;
/** Two axes on the same line: an up axis the solver rejects for that forward axis. */
const parallel = (a, b) => a.slice(1) === b.slice(1);
/** The first up axis that works with `forward`, preferring `up`. */
const usableUp = (forward, up) => (parallel(forward, up) ? Object.keys(AXES).find((a) => !parallel(forward, a)) : up);

export async function create(ctx) {
  const { scene, camera, controls, ikpd } = ctx;
  setupStage(ctx, { shadowExtent: 5 });
  ctx.bounds.set(new THREE.Vector3(-4, 0, -3), new THREE.Vector3(4, 4.5, 3.5));
  camera.position.set(0.4, 3.0, 6.2);
  controls.target.set(0, 1.0, 0);

  const params = {
    forward: '+x',
    up: '+y',
    usePole: false,
    hinge: 'none',
    weight: 1,
    restYaw: 0,
    restPitch: 0,
    restRoll: 0,
    showTarget: true,
  };

  const target = ctx.draggable('target', handle(colors.target, 0.08), { onChange: () => {} });
  target.position.set(1.2, 2.2, 1.6);
  scene.add(target);
  const pole = ctx.draggable('pole', handle(colors.up, 0.06));
  pole.position.set(0, 3.2, -1.2);
  scene.add(pole);

  const joints = METHODS.map((method, i) => {
    const x = (i - 1) * 2.1;
    const pedestal = new THREE.Mesh(new THREE.CylinderGeometry(0.16, 0.22, 1.0, 24), standard(0x3d424c, { flatShading: false }));
    pedestal.position.set(x, 0.5, 0);
    pedestal.castShadow = pedestal.receiveShadow = true;
    scene.add(pedestal);
    const joint = new THREE.Group();
    joint.position.set(x, 1.15, 0);
    const bone = boneMesh(0.9, { axis: 'x', color: i === 2 ? colors.boneAlt : colors.bone, jointRadius: 0.07 });
    joint.add(bone);
    const axes = createAxes(0.55, 0.014);
    joint.add(axes);
    scene.add(joint);
    const aimLine = guideLine(colors.target, 0.3);
    const upLine = guideLine(colors.up, 0.3);
    scene.add(aimLine, upLine);
    ctx.label(pedestal, method, [0, -0.3, 0.45]);
    return { method, joint, bone, aimLine, upLine, result: null };
  });

  // Rest rotation every method starts from (shortest arc keeps its roll).
  const rest = new THREE.Quaternion();
  function updateRest() {
    rest.setFromEuler(new THREE.Euler(deg(params.restRoll), deg(params.restYaw), deg(params.restPitch), 'YZX'));
    const f = AXES[params.forward];
    for (const j of joints) {
      j.bone.quaternion.setFromUnitVectors(new THREE.Vector3(1, 0, 0), new THREE.Vector3(...f));
    }
  }

  const gui = ctx.gui;
  // The up axis can never be the forward axis or its opposite: those choices are disabled, and
  // a forward axis that makes the current up axis parallel moves it to the next usable one.
  let upControl = null;
  function keepUpUsable() {
    params.up = usableUp(params.forward, params.up);
    Object.keys(AXES).forEach((axis, i) => { upControl.$select.options[i].disabled = parallel(params.forward, axis); });
    upControl.updateDisplay();
  }
  gui.add(params, 'forward', Object.keys(AXES)).name('forward axis').onChange(() => { keepUpUsable(); updateRest(); });
  upControl = gui.add(params, 'up', Object.keys(AXES)).name('up axis').onChange(keepUpUsable);
  keepUpUsable();
  const noHinge = () => params.hinge === 'none';
  ctx.enableWhen(upControl, () => params.usePole && noHinge()); // the up axis only rolls toward the up target
  ctx.enableWhen(gui.add(params, 'usePole').name('up target (roll)').onChange((v) => { pole.visible = v; }), noHinge);
  gui.add(params, 'hinge', ['none', '+y', '+z']).name('hinge axis (2D)');
  gui.add(params, 'weight', 0, 1, 0.01);
  const restFolder = gui.addFolder('rest rotation (°)');
  restFolder.add(params, 'restYaw', -180, 180, 1).name('yaw').onChange(updateRest);
  restFolder.add(params, 'restPitch', -90, 90, 1).name('pitch').onChange(updateRest);
  restFolder.add(params, 'restRoll', -180, 180, 1).name('roll').onChange(updateRest);
  pole.visible = params.usePole;
  updateRest();

  const legend = ctx.panel('Axes', 'bottom-right');
  legend.insertAdjacentHTML('beforeend',
    '<div><span style="color:#ff4b4b">■</span> X (forward in the reference convention) <span style="color:#55d66b">■</span> Y <span style="color:#4b8bff">■</span> Z</div>'
    + '<div style="margin-top:3px;max-width:260px">yaw+pitch and cross product give the same rotation; shortest arc points X the same way but keeps the rest roll, so its Y/Z differ.</div>');

  const v = new THREE.Vector3();
  return {
    update() {
      const t = target.position.toArray();
      for (const j of joints) {
        const request = {
          position: j.joint.position.toArray(),
          rotation: rest.toArray(),
          target: t,
          forward: AXES[params.forward],
          up: AXES[usableUp(params.forward, params.up)],
          method: j.method,
          weight: params.weight,
        };
        if (params.usePole) request.pole = pole.position.toArray();
        if (params.hinge !== 'none') {
          request.hingeAxis = AXES[params.hinge];
          delete request.pole;
        }
        const result = ikpd.solveAim(request);
        j.result = result.rotation;
        j.joint.quaternion.fromArray(result.rotation);
        j.aimLine.set(j.joint.position, target.position);
        j.upLine.visible = params.usePole && params.hinge === 'none';
        if (j.upLine.visible) j.upLine.set(j.joint.position, v.copy(pole.position));
      }
    },
    state() {
      return { target: target.position.toArray(), forward: params.forward, up: params.up, rotations: Object.fromEntries(joints.map((j) => [j.method, j.result])) };
    },
  };
}
