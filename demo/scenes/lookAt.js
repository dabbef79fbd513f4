// Full-body look-at (docs/rig/body-look-at.md) on a skinned humanoid through ikpd/three's
// BodyLookAtIK: the head leads and the spine follows, the hips shift against the
// head, the arms lag the chest and the feet stay planted. Beside it an "IK off"
// ghost plays the same idle animation without the IK. The rig runs at a
// simulated update rate (15–240 Hz): with the exact integrator the motion is
// the same at any rate. "mutual gaze" adds a shorter partner: the two look at
// each other's eyes; target motion "camera" looks at the orbiting camera, where
// the `behind` policy (docs/rig/look-at.md) keeps the head from sweeping through the
// front when the camera passes behind.
import * as THREE from 'three/webgpu';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { colors, ghostMaterial, handle, setupStage } from '../lib/stage.js';
import { createHumanoid } from '../lib/humanoid.js';

const HISTORY_SECONDS = 8;
const IK_X = 0.45; // the IK character stands here, the ghost at -IK_X
const DAMPING = { critical: 1, responsive: Math.SQRT1_2, over: 1.5 };
const SPINE_JOINTS = 6; // mixamorigHips … mixamorigHead

/** A humanoid playing the looping idle, at `x`. */
function addHumanoid(scene, x, material) {
  const human = createHumanoid({ names: 'mixamo', material });
  human.root.position.x = x;
  scene.add(human.root);
  human.root.updateMatrixWorld(true);
  human.mixer = new THREE.AnimationMixer(human.root);
  human.mixer.clipAction(human.idle).play();
  human.mixer.update(0);
  return human;
}

/** Root-local position of a bone (the characters stand unrotated, so these compare across them). */
function localPosition(human, role) {
  const p = human.bones[role].getWorldPosition(new THREE.Vector3());
  return human.root.worldToLocal(p).toArray();
}

const _head = new THREE.Vector3();
const _facing = new THREE.Vector3();
const _to = new THREE.Vector3();
const _q = new THREE.Quaternion();
const AHEAD = new THREE.Vector3(0, 0, 1);

/**
 * Degrees between the facing (+Z at rest) of `facer`'s head (default `human`'s)
 * and, with `point`, the line from `human`'s head to it; else straight ahead.
 */
function headAngle(human, point, facer = human) {
  human.bones.head.getWorldPosition(_head);
  _facing.set(0, 0, 1).applyQuaternion(facer.bones.head.getWorldQuaternion(_q));
  const toward = point ? _to.copy(point).sub(_head) : AHEAD;
  return THREE.MathUtils.radToDeg(_facing.angleTo(toward));
}

export async function create(ctx) {
  const { scene, camera, controls, ikpd, ikpdThree } = ctx;
  setupStage(ctx);
  ctx.bounds.set(new THREE.Vector3(-2.5, 0.3, -1.5), new THREE.Vector3(3, 2.8, 3));
  camera.position.set(1.7, 1.8, 4.0);
  controls.target.set(0.85, 1.05, 0); // the characters left of the GUI and the plot

  const human = addHumanoid(scene, IK_X);
  const ghostLook = ghostMaterial(0.35);
  const ghost = addHumanoid(scene, -IK_X, ghostLook);
  ghost.mesh.castShadow = false;
  ctx.label(human.bones.head, 'BodyLookAtIK', [0, 0.38, 0]);
  ctx.label(ghost.bones.head, 'IK off', [0, 0.38, 0]);

  const params = {
    lookAt: true,
    weightShift: true,
    armReaction: true,
    footLock: true,
    enabled: true,
    motion: 'jump',
    damping: 'critical',
    ratio: 1,
    settleTime: 0.2,
    rate: 60,
    idle: true,
    mutual: false,
    behind: 'keep',
  };

  const target = ctx.draggable('target', handle(colors.target, 0.07));
  target.position.set(1.3, 1.6, 1.3);
  scene.add(target);
  ctx.transform.addEventListener('dragging-changed', (event) => {
    if (event.value && params.motion !== 'manual') {
      params.motion = 'manual';
      gui.controllersRecursive().forEach((c) => c.updateDisplay());
    }
  });

  // ---------------------------------------------------------------- the rig
  let ik = null;
  let error = '';
  const damping = () => (params.damping === 'ratio' ? params.ratio : DAMPING[params.damping]);
  /** Per-joint settle times, hips → head: from 3× the head's down to the head's, so the head leads. */
  const settleTimes = () => Array.from({ length: SPINE_JOINTS }, (_, i) => params.settleTime * (3 - (2 * i) / (SPINE_JOINTS - 1)));
  function options() {
    return {
      bones: 'mixamo',
      target: target.position,
      enabled: params.enabled,
      spine: {
        settleTime: settleTimes(),
        damping: damping(),
        ...(params.lookAt ? {} : { weights: new Array(SPINE_JOINTS).fill(0) }),
      },
      weightShift: { amount: params.weightShift ? 0.05 : 0, settleTime: 3 * params.settleTime, damping: damping() },
      armReaction: { amount: params.armReaction ? 0.7 : 0 },
      footLock: params.footLock,
      behind: params.behind,
      eyes: 'auto', // mixamorigLeftEye/RightEye lead the head (docs/rig/look-at.md, "Eyes")
    };
  }

  // ---------------------------------------------------------------- mutual gaze
  // A partner 15 % shorter, facing the IK character; each looks at the other's eyes.
  const EYES = new THREE.Vector3(0, 0.08, 0.1); // head-local eye point
  const partnerEyes = new THREE.Vector3();
  const humanEyes = new THREE.Vector3();
  let partner = null;
  function setMutual(on) {
    if (on && !partner) {
      const h = addHumanoid(scene, IK_X + 0.6);
      h.root.position.z = 1.3;
      h.root.rotation.y = Math.atan2(IK_X - h.root.position.x, -h.root.position.z); // faces the IK character
      h.root.scale.setScalar(0.85);
      h.root.updateMatrixWorld(true);
      h.ik = new ikpdThree.BodyLookAtIK(ikpd, h.root, { bones: 'mixamo', target: humanEyes, offset: EYES.toArray(), behind: params.behind });
      partner = h;
    } else if (!on && partner) {
      partner.ik.dispose();
      partner.mixer.stopAllAction();
      scene.remove(partner.root);
      partner.skeleton.dispose();
      partner = null;
    }
    if (ik) ik.target = on ? partnerEyes : target.position;
  }
  /** (Re)builds the rig from the animated pose: the bind pose, then the clip at its current time. */
  function buildRig() {
    ik?.dispose();
    ik = null;
    human.skeleton.pose();
    human.mixer.update(0);
    human.root.updateMatrixWorld(true);
    try {
      ik = new ikpdThree.BodyLookAtIK(ikpd, human.root, options());
      if (partner) ik.target = partnerEyes;
      error = '';
    } catch (e) {
      error = String(e.message ?? e);
    }
  }
  buildRig();

  const gui = ctx.gui;
  const effects = gui.addFolder('effects');
  effects.add(params, 'lookAt').name('head / spine look-at').onChange(buildRig);
  effects.add(params, 'weightShift').name('weight shift (hips)').onChange(buildRig);
  effects.add(params, 'armReaction').name('arm reaction').onChange(buildRig);
  effects.add(params, 'footLock').name('foot lock').onChange(buildRig);
  effects.add(params, 'enabled').name('IK on (off → blend out)').onChange((on) => { if (ik) ik.enabled = on; });
  gui.add(params, 'motion', ['jump', 'orbit', 'manual', 'camera']).name('target motion')
    .onChange((m) => { controls.autoRotate = m === 'camera'; });
  gui.add(params, 'behind', ['keep', 'front', 'follow']).name('target behind').onChange(() => {
    buildRig();
    if (partner) { setMutual(false); setMutual(true); }
  });
  gui.add(params, 'mutual').name('mutual gaze').onChange(setMutual);
  gui.add(params, 'damping', ['critical', 'responsive', 'over', 'ratio']).onChange(buildRig);
  ctx.enableWhen(gui.add(params, 'ratio', 0.2, 2, 0.01).name('damping ratio ζ').onChange(buildRig), () => params.damping === 'ratio');
  gui.add(params, 'settleTime', 0.05, 1, 0.01).name('head settle time (s)').onChange(buildRig);
  gui.add(params, 'rate', 15, 240, 1).name('update rate (Hz)');
  gui.add(params, 'idle').name('idle animation').onChange((on) => {
    for (const h of [human, ghost]) h.mixer.timeScale = on ? 1 : 0;
  });
  gui.add({ reset: buildRig }, 'reset').name('reset rig');

  // ---------------------------------------------------------------- plot
  const plotPanel = ctx.panel('Head angle from straight ahead (°)', 'bottom-right');
  const status = document.createElement('div');
  plotPanel.appendChild(status);
  const times = [];
  const actual = [];
  const wanted = [];
  const still = [];
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
      { label: 'IK off', stroke: '#9fb7d6', width: 1 },
    ],
    legend: { show: true, live: false },
    cursor: { show: false },
  }, [times, wanted, actual, still], plotPanel);

  // ---------------------------------------------------------------- simulation
  const jumpTargets = [[1.3, 1.6, 1.3], [-0.4, 1.2, 1.4], [0.8, 2.3, 1.2], [1.9, 1.0, -0.2], [0.2, 1.7, 2.0]];
  let simTime = 0;
  let accumulator = 0;
  let worstFoot = 0;

  function moveTarget(t) {
    if (params.motion === 'jump') target.position.fromArray(jumpTargets[Math.floor(t / 2.2) % jumpTargets.length]);
    else if (params.motion === 'orbit') target.position.set(IK_X + Math.sin(t * 0.9) * 1.4, 1.5 + Math.sin(t * 1.7) * 0.45, 1.0 + Math.cos(t * 0.9) * 0.6);
    else if (params.motion === 'camera') target.position.copy(camera.position);
  }

  /** How far each IK foot (ankle) is from where the animation (the ghost) has it, metres. */
  function footGaps() {
    return ['leftFoot', 'rightFoot'].map((role) => {
      const a = localPosition(human, role);
      const b = localPosition(ghost, role);
      return Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
    });
  }

  /** One update of the rig: both characters animate, then the IK character's rig runs. */
  function step(dt) {
    simTime += dt;
    moveTarget(simTime);
    human.mixer.update(dt);
    ghost.mixer.update(dt);
    ghost.root.updateMatrixWorld(true);
    if (partner) {
      partner.mixer.update(dt);
      partner.root.updateMatrixWorld(true);
      partner.bones.head.localToWorld(partnerEyes.copy(EYES));
      human.bones.head.localToWorld(humanEyes.copy(EYES));
      partner.ik.update(dt);
    }
    try {
      ik?.update(dt);
    } catch (e) {
      error = String(e.message ?? e);
      ik?.dispose();
      ik = null;
    }
    human.root.updateMatrixWorld(true);
    worstFoot = Math.max(worstFoot, ...footGaps());
    times.push(simTime);
    actual.push(headAngle(human, null));
    wanted.push(ik && params.enabled && params.lookAt ? angleToTarget() : 0);
    still.push(headAngle(ghost, null));
  }

  /** Angle of the line head → target from straight ahead (degrees). */
  function angleToTarget() {
    human.bones.head.getWorldPosition(_head);
    return THREE.MathUtils.radToDeg(_to.copy(target.position).sub(_head).angleTo(AHEAD));
  }

  return {
    update(dt) {
      const interval = 1 / params.rate;
      accumulator = Math.min(accumulator + dt, 0.25);
      while (accumulator >= interval) {
        accumulator -= interval;
        step(interval);
      }
      while (times.length && times[0] < simTime - HISTORY_SECONDS) { times.shift(); actual.shift(); wanted.shift(); still.shift(); }
      plot.setData([times, wanted, actual, still]);
      const active = ik?.active ?? false;
      status.innerHTML = `exact · ${params.rate} Hz · ζ ${damping().toFixed(2)} · settle ${settleTimes()[0].toFixed(2)}→${params.settleTime.toFixed(2)} s · `
        + `<span class="status-pill ${active ? 'ok' : 'no'}">${active ? 'IK active' : 'IK blended out'}</span>`
        + ` · feet ≤ ${(worstFoot * 1000).toFixed(2)} mm${error ? `<br><span style="color:#ff7b72">${error}</span>` : ''}`;
    },
    reset() {
      simTime = 0;
      accumulator = 0;
      worstFoot = 0;
      buildRig();
    },
    state() {
      return {
        target: target.position.toArray(),
        error,
        active: ik?.active ?? false,
        simTime,
        // Ankles of the IK character and of the animation (the ghost), each in its root's frame.
        feet: ['leftFoot', 'rightFoot'].map((role) => localPosition(human, role)),
        animatedFeet: ['leftFoot', 'rightFoot'].map((role) => localPosition(ghost, role)),
        footGaps: footGaps(),
        worstFoot,
        hips: localPosition(human, 'hips'),
        animatedHips: localPosition(ghost, 'hips'),
        // Degrees between the IK head's line to the target and its facing, solved and as animated (the ghost's).
        headToTarget: headAngle(human, target.position),
        animatedHeadToTarget: headAngle(human, target.position, ghost),
        // Degrees from straight ahead, solved and as animated.
        headOffset: headAngle(human, null),
        animatedHeadOffset: headAngle(ghost, null),
      };
    },
    dispose() {
      plot.destroy();
      setMutual(false);
      controls.autoRotate = false;
      ik?.dispose();
      ik = null;
      for (const h of [human, ghost]) {
        h.mixer.stopAllAction();
        h.mixer.uncacheRoot(h.root);
        h.skeleton.dispose();
      }
    },
  };
}
