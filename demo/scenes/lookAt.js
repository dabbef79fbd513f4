// PD look-at (SPEC §6): spine, chest, neck and head turn toward the target,
// the head leading and the body following by per-joint weights. Each joint's
// IK *offset* from its animation is smoothed by a quaternion PD controller
// (QuatPD.trackOffset); turning IK off blends the offsets out to exactly zero.
// The controllers run at a simulated update rate (15–240 Hz): with the exact
// integrator the motion is the same at any rate.
import * as THREE from 'three/webgpu';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { colors, handle, setupStage, standard } from '../lib/stage.js';

const deg = THREE.MathUtils.degToRad;
const HISTORY_SECONDS = 8;

// Spine bones (+Y up the spine, the character faces +Z): name, offset from parent, weight, PD max angle.
const JOINTS = [
  { name: 'spine', offset: [0, 1.0, 0], weight: 0.15, maxAngle: 25 },
  { name: 'chest', offset: [0, 0.22, 0], weight: 0.2, maxAngle: 30 },
  { name: 'neck', offset: [0, 0.3, 0], weight: 0.35, maxAngle: 45 },
  { name: 'head', offset: [0, 0.12, 0], weight: 1, maxAngle: 80 },
];

function buildCharacter(scene) {
  const cloth = standard(0x5b7fa6, { flatShading: false, roughness: 0.7 });
  const skin = standard(0xe2c3a4, { flatShading: false, roughness: 0.6 });
  const dark = standard(0x2e3440, { flatShading: false });
  const root = new THREE.Group();
  scene.add(root);
  // Legs and pelvis (not animated).
  for (const x of [-0.11, 0.11]) {
    const leg = new THREE.Mesh(new THREE.CapsuleGeometry(0.065, 0.78, 6, 12), dark);
    leg.position.set(x, 0.48, 0);
    leg.castShadow = true;
    root.add(leg);
  }
  const pelvis = new THREE.Mesh(new THREE.BoxGeometry(0.34, 0.16, 0.2), dark);
  pelvis.position.set(0, 0.95, 0);
  pelvis.castShadow = true;
  root.add(pelvis);

  const bones = [];
  let parent = root;
  for (const j of JOINTS) {
    const bone = new THREE.Bone();
    bone.name = j.name;
    bone.position.fromArray(j.offset);
    parent.add(bone);
    bones.push(bone);
    parent = bone;
  }
  const [spine, chest, neck, head] = bones;
  const belly = new THREE.Mesh(new THREE.CapsuleGeometry(0.15, 0.12, 6, 16), cloth);
  belly.position.set(0, 0.1, 0);
  belly.scale.set(1.1, 1, 0.8);
  belly.castShadow = true;
  spine.add(belly);
  const torso = new THREE.Mesh(new THREE.CapsuleGeometry(0.18, 0.16, 6, 16), cloth);
  torso.position.set(0, 0.14, 0);
  torso.scale.set(1.2, 1, 0.75);
  torso.castShadow = true;
  chest.add(torso);
  for (const side of [-1, 1]) {
    const arm = new THREE.Mesh(new THREE.CapsuleGeometry(0.05, 0.55, 6, 12), cloth);
    arm.position.set(side * 0.27, -0.05, 0);
    arm.rotation.z = side * 0.12;
    arm.castShadow = true;
    chest.add(arm);
  }
  const neckMesh = new THREE.Mesh(new THREE.CylinderGeometry(0.05, 0.06, 0.14, 12), skin);
  neckMesh.position.set(0, 0.05, 0);
  neck.add(neckMesh);
  const skull = new THREE.Mesh(new THREE.SphereGeometry(0.13, 32, 16), skin);
  skull.scale.set(0.9, 1.05, 1);
  skull.position.set(0, 0.12, 0);
  skull.castShadow = true;
  head.add(skull);
  const visor = new THREE.Mesh(new THREE.BoxGeometry(0.18, 0.05, 0.06), new THREE.MeshStandardMaterial({ color: 0x101418, emissive: 0x33ddff, emissiveIntensity: 1.6 }));
  visor.position.set(0, 0.14, 0.105);
  head.add(visor);
  const nose = new THREE.Mesh(new THREE.ConeGeometry(0.02, 0.06, 8).rotateX(Math.PI / 2), skin);
  nose.position.set(0, 0.08, 0.135);
  head.add(nose);
  return bones;
}

export async function create(ctx) {
  const { scene, camera, controls, ikpd } = ctx;
  setupStage(ctx);
  ctx.bounds.set(new THREE.Vector3(-3, 0.05, -2.5), new THREE.Vector3(3, 3.5, 3));
  camera.position.set(2.2, 2.0, 3.4);
  controls.target.set(0, 1.35, 0);

  const bones = buildCharacter(scene);
  const restLocal = bones.map((b) => b.quaternion.clone());

  const params = {
    ik: true,
    motion: 'jump',
    integrator: 'exact',
    damping: 'critical',
    ratio: 1,
    settleTime: 0.6,
    rate: 60,
    breathe: true,
  };

  const target = ctx.draggable('target', handle(colors.target, 0.07));
  target.position.set(1.2, 1.7, 1.2);
  scene.add(target);
  ctx.transform.addEventListener('dragging-changed', (event) => {
    if (event.value && params.motion !== 'manual') {
      params.motion = 'manual';
      gui.controllersRecursive().forEach((c) => c.updateDisplay());
    }
  });

  let controllers = [];
  let error = '';
  function pdOptions(j) {
    return {
      settleTime: params.settleTime,
      damping: params.damping === 'ratio' ? params.ratio : params.damping,
      integrator: params.integrator,
      maxAngle: deg(j.maxAngle),
    };
  }
  function buildControllers() {
    for (const c of controllers) c.dispose();
    controllers = JOINTS.map((j) => new ikpd.QuatPD(pdOptions(j)));
    error = '';
  }
  function configure() {
    if (controllers.length === 0) return buildControllers();
    controllers.forEach((c, i) => c.configure(pdOptions(JOINTS[i])));
  }
  buildControllers();

  const gui = ctx.gui;
  gui.add(params, 'ik').name('IK on (off → blend out)');
  gui.add(params, 'motion', ['jump', 'orbit', 'manual']).name('target motion');
  gui.add(params, 'integrator', ['exact', 'stable', 'explicit', 'substep']).onChange(configure);
  gui.add(params, 'damping', ['critical', 'responsive', 'over', 'ratio']).onChange(configure);
  ctx.enableWhen(gui.add(params, 'ratio', 0, 2, 0.01).name('damping ratio ζ').onChange(configure), () => params.damping === 'ratio');
  gui.add(params, 'settleTime', 0.1, 3, 0.01).name('settle time (s)').onChange(configure);
  gui.add(params, 'rate', 15, 240, 1).name('update rate (Hz)');
  gui.add(params, 'breathe').name('idle animation');
  gui.add({ reset: buildControllers }, 'reset').name('reset controllers');

  // ---------------------------------------------------------------- plot
  const plotPanel = ctx.panel('Head angle from straight ahead (°)', 'bottom-right');
  const status = document.createElement('div');
  plotPanel.appendChild(status);
  const times = [];
  const actual = [];
  const wanted = [];
  const plot = new uPlot({
    width: 330,
    height: 160,
    scales: { x: { time: false }, y: { range: (u, min, max) => [0, Math.max(10, max * 1.1)] } },
    axes: [
      { stroke: '#9a9aa6', grid: { stroke: 'rgba(255,255,255,.07)' }, size: 24 },
      { stroke: '#9a9aa6', grid: { stroke: 'rgba(255,255,255,.07)' }, size: 34 },
    ],
    series: [
      { label: 't (s)' },
      { label: 'target direction', stroke: '#ff8a6b', width: 1.5, dash: [4, 3] },
      { label: 'head', stroke: '#7bd88f', width: 2, paths: uPlot.paths.stepped({ align: 1 }) },
    ],
    legend: { show: true, live: false },
    cursor: { show: false },
  }, [times, wanted, actual], plotPanel);
  ctx.onDispose(() => { plot.destroy(); for (const c of controllers) c.dispose(); controllers = []; });

  // ---------------------------------------------------------------- simulation
  const animation = bones.map(() => new THREE.Quaternion()); // world rotation from animation + smoothed parents
  const parentWorld = new THREE.Quaternion();
  const tmp = new THREE.Quaternion();
  const position = new THREE.Vector3();
  const breathe = new THREE.Quaternion();
  const facing = new THREE.Vector3();
  const toTarget = new THREE.Vector3();
  const ahead = new THREE.Vector3(0, 0, 1);
  const jumpTargets = [[1.2, 1.7, 1.2], [-1.3, 1.2, 0.9], [0.2, 2.4, 1.5], [-0.8, 2.0, -0.4], [1.4, 0.9, 0.3]];
  let simTime = 0;
  let accumulator = 0;
  let lastOffset = 0;
  let lastWanted = 0;

  function moveTarget(t) {
    if (params.motion === 'jump') target.position.fromArray(jumpTargets[Math.floor(t / 2.2) % jumpTargets.length]);
    else if (params.motion === 'orbit') target.position.set(Math.sin(t * 0.9) * 1.5, 1.6 + Math.sin(t * 1.7) * 0.45, 1.1 + Math.cos(t * 0.9) * 0.5);
  }

  /** One simulated update of dt: animation pose, aimed pose per joint, PD-smoothed offsets. */
  function step(dt) {
    simTime += dt;
    moveTarget(simTime);
    const sway = params.breathe ? Math.sin(simTime * 1.3) * 0.04 : 0;
    bones[0].parent.updateWorldMatrix(true, false);
    bones[0].parent.getWorldQuaternion(parentWorld);
    const t = target.position.toArray();
    JOINTS.forEach((j, i) => {
      const bone = bones[i];
      breathe.setFromEuler(new THREE.Euler(i === 0 ? sway : 0, 0, 0));
      animation[i].copy(parentWorld).multiply(restLocal[i]).multiply(breathe);
      bone.quaternion.copy(restLocal[i]).multiply(breathe);
      bone.updateWorldMatrix(false, false);
      bone.getWorldPosition(position);
      let desired = null;
      if (params.ik) {
        desired = ikpd.solveAim({
          position: position.toArray(),
          rotation: animation[i].toArray(),
          target: t,
          forward: [0, 0, 1],
          up: [0, 1, 0],
          pole: [position.x, position.y + 10, position.z],
          weight: j.weight,
        }).rotation;
      }
      const smoothed = tmp.fromArray(controllers[i].trackOffset(dt, animation[i].toArray(), desired));
      if (i === JOINTS.length - 1) {
        // Plot: how far the head faces away from straight ahead, and how far the target is.
        facing.set(0, 0, 1).applyQuaternion(smoothed);
        lastOffset = THREE.MathUtils.radToDeg(facing.angleTo(ahead));
        lastWanted = params.ik ? THREE.MathUtils.radToDeg(toTarget.copy(target.position).sub(position).angleTo(ahead)) : 0;
      }
      // World → local under the (already smoothed) parent.
      bone.quaternion.copy(parentWorld).invert().multiply(smoothed);
      bone.updateWorldMatrix(false, false);
      parentWorld.copy(smoothed);
    });
  }

  return {
    update(dt) {
      const interval = 1 / params.rate;
      accumulator = Math.min(accumulator + dt, 0.25);
      while (accumulator >= interval) {
        accumulator -= interval;
        try {
          step(interval);
        } catch (e) {
          // The explicit/stable integrators diverge for stiff gains at low rates: say so, restart.
          error = String(e.message ?? e);
          buildControllers();
          error = `diverged (${params.integrator} at ${params.rate} Hz), controllers reset`;
        }
        times.push(simTime);
        actual.push(lastOffset);
        wanted.push(lastWanted);
      }
      while (times.length && times[0] < simTime - HISTORY_SECONDS) { times.shift(); actual.shift(); wanted.shift(); }
      plot.setData([times, wanted, actual]);
      const stability = controllers[3].checkStability(interval);
      status.innerHTML = `${params.integrator} · ${params.rate} Hz · kp ${controllers[3].kp.toFixed(1)} kd ${controllers[3].kd.toFixed(1)} · `
        + `<span class="status-pill ${stability.stable ? 'ok' : 'no'}">${stability.stable ? 'stable' : 'unstable'}</span>`
        + ` · blend ${controllers[3].blendPhase}${error ? `<br><span style="color:#ff7b72">${error}</span>` : ''}`;
    },
    state() {
      return {
        target: target.position.toArray(),
        headOffset: lastOffset,
        wantedOffset: lastWanted,
        rotations: bones.map((b) => b.quaternion.toArray()),
        blendPhase: controllers[3]?.blendPhase,
      };
    },
  };
}
