// A whole body from a head and two hands (docs/rig/avatar.md) through
// ikpd/three's AvatarIK: the humanoid (the built-in one playing its idle,
// CesiumMan, or a dropped .glb/.gltf/.vrm) follows three targets, the head and the hands, each a handle to
// drag, or a scripted tracking session (look around, crouch, reach overhead
// and behind the back, hands behind the head, reach forward beyond the arms
// (the "arm stretch" toggle: they lengthen up to 1.3× to reach), turn 90°, walk
// forward onto a 6 cm step, side-step left and right, walk back: the root carries the walk
// and the planted feet step, landing on the step through AvatarIK's `ground`,
// docs/rig/avatar.md, "Uneven ground"); where
// the browser offers immersive-vr, "enter VR" puts the targets on the
// headset and the controllers' grips (docs/rig/avatar.md, "WebXR"). The
// "full-body trackers" toggle adds pelvis and foot targets (docs/rig/avatar.md,
// "Full-body trackers"): handles to drag, and in the script the pelvis
// follows the crouch and the left foot lifts.
import * as THREE from 'three/webgpu';
import { colors, handle, setupStage } from '../lib/stage.js';
import { createHumanoid } from '../lib/humanoid.js';
import { CESIUM_MAN_HUMANOID, disposeModel, knownHumanoid, loadSample } from '../lib/sampleCharacters.js';
import { frameModel, listenForDrops, parseDropped } from '../lib/droppedModel.js';

const TARGETS = ['head', 'leftHand', 'rightHand'];
// The full-body trackers and their humanoid roles.
const BODY = ['pelvis', 'leftFoot', 'rightFoot'];
const ROLES = { head: 'head', leftHand: 'leftHand', rightHand: 'rightHand', pelvis: 'hips', leftFoot: 'leftFoot', rightFoot: 'rightFoot' };
const LABELS = { head: 'head target', leftHand: 'left hand target', rightHand: 'right hand target',
  pelvis: 'pelvis target', leftFoot: 'left foot target', rightFoot: 'right foot target' };
const COLORS = { head: colors.target, leftHand: colors.pole, rightHand: colors.accent, pelvis: colors.target, leftFoot: colors.pole, rightFoot: colors.accent };
const UP = new THREE.Vector3(0, 1, 0);
const ACROSS = new THREE.Vector3(1, 0, 0);

// The scripted session, for a 1.58 m head (scaled to the character): at each key time, the head's
// offset from rest [x, y, z], its yaw and pitch (down +), each hand's place in the character's
// space (x left, y up, z forward), the body's turn and where the user stands [x, z] (the root
// carries it; omitted: where it started); eased from key to key, looping.
const SCRIPT = [
  { t: 0, head: [0, 0, 0, 0, 0], left: [0.22, 1.1, 0.2], right: [-0.22, 1.1, 0.2], turn: 0 }, // standing
  { t: 1.5, head: [0, 0, 0, 0.7, 0], left: [0.22, 1.1, 0.2], right: [-0.22, 1.1, 0.2], turn: 0 }, // look left
  { t: 3, head: [0, 0, 0, -0.7, 0.25], left: [0.22, 1.1, 0.2], right: [-0.22, 1.1, 0.2], turn: 0 }, // look right, down
  { t: 4.5, head: [0, -0.3, 0.05, 0, 0.2], left: [0.25, 0.85, 0.3], right: [-0.25, 0.85, 0.3], turn: 0 }, // crouch
  { t: 6, head: [0, -0.02, 0, 0, -0.35], left: [0.2, 1.84, 0.1], right: [-0.2, 1.84, 0.1], turn: 0 }, // reach overhead
  { t: 6.8, head: [0, 0, 0, 0, 0], left: [0.42, 1.15, -0.05], right: [-0.42, 1.15, -0.05], turn: 0 }, // arms down the sides
  { t: 7.6, head: [0, 0, 0, 0, 0], left: [0.12, 1.0, -0.2], right: [-0.12, 1.0, -0.2], turn: 0 }, // behind the back
  { t: 9, head: [0, 0, 0, 0, -0.1], left: [0.1, 1.6, -0.1], right: [-0.1, 1.6, -0.1], turn: 0 }, // hands behind the head
  { t: 10.5, head: [0, -0.03, 0.02, 0, 0.1], left: [0.2, 1.32, 0.62], right: [-0.2, 1.32, 0.62], turn: 0 }, // reach forward, beyond the arms (they stretch)
  { t: 12, head: [0, -0.03, 0.02, 0, 0.1], left: [0.2, 1.2, 0.3], right: [-0.2, 1.2, 0.3], turn: Math.PI / 2 }, // turn 90°
  { t: 14, head: [0, 0, 0, 0, 0], left: [0.22, 1.1, 0.2], right: [-0.22, 1.1, 0.2], turn: 0 }, // and back
  { t: 17, head: [0, 0, 0, 0, 0], left: [0.22, 1.1, 0.2], right: [-0.22, 1.1, 0.2], turn: 0, move: [0, 1] }, // walk 1 m forward
  { t: 18.5, head: [0, 0, 0, 0, 0], left: [0.22, 1.1, 0.2], right: [-0.22, 1.1, 0.2], turn: 0, move: [0.5, 1] }, // side-step left
  { t: 20, head: [0, 0, 0, 0, 0], left: [0.22, 1.1, 0.2], right: [-0.22, 1.1, 0.2], turn: 0, move: [0, 1] }, // and right
  { t: 23, head: [0, 0, 0, 0, 0], left: [0.22, 1.1, 0.2], right: [-0.22, 1.1, 0.2], turn: 0, move: [0, 0] }, // walk back
  { t: 25, head: [0, 0, 0, 0, 0], left: [0.22, 1.1, 0.2], right: [-0.22, 1.1, 0.2], turn: 0, move: [0, 0] }, // stand
];
const STILL = [0, 0];
// The arms lengthen up to this to reach the script's far reach (docs/rig/avatar.md, "Arm stretch"; the GUI's toggle).
const ARM_STRETCH = 1.3;
const LOOP = SCRIPT[SCRIPT.length - 1].t;
const ease = (x) => x * x * (3 - 2 * x);
// The step the walk crosses (the character's space, scaled like the script): its height and its
// extent [left from, left to, forward from, forward to]; the feet land on it (AvatarIK's ground).
const STEP = { height: 0.06, extent: [-0.45, 0.95, 0.45, 1.6] };
const mix = (a, b, s) => a.map((v, i) => v + (b[i] - v) * s);

/** The session at time `t`: the keys' values eased between the keys around it. */
function sessionAt(t) {
  const time = t % LOOP;
  const k = SCRIPT.findIndex((key) => key.t > time);
  const a = SCRIPT[k - 1], b = SCRIPT[k];
  const s = ease((time - a.t) / (b.t - a.t));
  return { head: mix(a.head, b.head, s), left: mix(a.left, b.left, s), right: mix(a.right, b.right, s), turn: a.turn + (b.turn - a.turn) * s,
    move: mix(a.move ?? STILL, b.move ?? STILL, s) };
}

const _v = new THREE.Vector3();
const _q = new THREE.Quaternion();
const _turn = new THREE.Quaternion();
const _pitch = new THREE.Quaternion();
const _box = new THREE.Box3();

export async function create(ctx) {
  const { scene, camera, controls, renderer, ikpd, ikpdThree } = ctx;
  setupStage(ctx);
  ctx.bounds.set(new THREE.Vector3(-1.5, 0.1, -1.2), new THREE.Vector3(1.5, 2.3, 1.5));
  camera.position.set(1.3, 1.55, 2.6);
  controls.target.set(0, 1.1, 0);

  // The step (a box raycast as the avatar's ground), placed in front of each character where its walk starts.
  const step = new THREE.Mesh(new THREE.BoxGeometry(1, 1, 1), new THREE.MeshStandardMaterial({ color: 0x8a8f98, roughness: 0.9 }));
  step.name = 'step';
  scene.add(step);
  function placeStep(root, origin, scale) {
    const [x0, x1, z0, z1] = STEP.extent;
    step.scale.set((x1 - x0) * scale, STEP.height * scale, (z1 - z0) * scale);
    step.quaternion.copy(root.quaternion);
    step.position.set(0.5 * (x0 + x1), 0.5 * STEP.height, 0.5 * (z0 + z1)).multiplyScalar(scale).applyQuaternion(root.quaternion).add(origin);
    step.updateMatrixWorld(true);
  }

  const params = { character: 'built-in', mode: 'script', speed: 1, weight: 1, headWeight: 1, leftHandWeight: 1, rightHandWeight: 1, enabled: true, fullBody: false, armStretch: true };
  const handles = {};
  for (const role of [...TARGETS, ...BODY]) {
    // Dragging a handle takes over from the script (the test hook's setTarget too).
    handles[role] = ctx.draggable(LABELS[role], handle(COLORS[role], role === 'head' || role === 'pelvis' ? 0.05 : 0.04), { onChange: () => setMode('drag') });
    handles[role].visible = !BODY.includes(role);
    scene.add(handles[role]);
  }
  const tracked = () => (params.fullBody ? [...TARGETS, ...BODY] : TARGETS);

  const status = ctx.panel('Avatar', 'bottom-right');
  const line = document.createElement('div');
  status.appendChild(line);

  // ---------------------------------------------------------------- the character and its AvatarIK
  let character = null; // { root, mixer, avatar, rest }
  let modeControl = null;
  let message = '';
  let time = 0;
  const loaded = {};

  /** The character's rest frame for the script: each target's place and rotation relative to its root. */
  function restOf(root, avatar) {
    root.updateMatrixWorld(true);
    const inverse = root.getWorldQuaternion(new THREE.Quaternion()).invert();
    const rest = { scale: 1 };
    for (const role of [...TARGETS, ...BODY]) {
      const bone = avatar.humanoid.get(ROLES[role]);
      rest[role] = { position: root.worldToLocal(bone.getWorldPosition(new THREE.Vector3())), rotation: bone.getWorldQuaternion(new THREE.Quaternion()).premultiply(inverse) };
    }
    rest.scale = rest.head.position.y / 1.58;
    return rest;
  }

  function useCharacter({ name, root, mixer, humanoid }) {
    const avatar = new ikpdThree.AvatarIK(ikpd, root, { humanoid, ...handlesAsTargets(), weight: params.weight, enabled: params.enabled,
      headWeight: params.headWeight, leftHandWeight: params.leftHandWeight, rightHandWeight: params.rightHandWeight,
      armStretch: params.armStretch ? ARM_STRETCH : 1, ground: [step] });
    character?.avatar.dispose();
    if (character) {
      character.root.position.copy(character.origin); // back where the walk started, for the next time it is chosen
      scene.remove(character.root);
    }
    scene.add(root);
    character = { name, root, mixer, avatar, rest: restOf(root, avatar), origin: root.position.clone() };
    placeStep(root, character.origin, character.rest.scale);
    place(0);
    message = '';
  }

  const handlesAsTargets = () => Object.fromEntries([...TARGETS, ...BODY].map((role) => [role, tracked().includes(role) ? handles[role] : null]));

  /** The full-body trackers on (their handles shown and given to AvatarIK) or off (null: blended back). */
  function setFullBody(on) {
    params.fullBody = on;
    for (const role of BODY) {
      handles[role].visible = on;
      if (character) character.avatar[role] = on ? handles[role] : null;
    }
  }

  function builtIn() {
    const human = loaded.builtIn ??= createHumanoid({ names: 'mixamo' });
    human.mixer ??= new THREE.AnimationMixer(human.root);
    human.mixer.clipAction(human.idle).play();
    human.mixer.update(0);
    return { name: 'built-in', root: human.root, mixer: human.mixer, humanoid: 'auto' };
  }

  async function cesiumMan() {
    const man = loaded.man ??= await loadSample('CesiumMan');
    man.mixer ??= new THREE.AnimationMixer(man.root);
    // Its clip is a walk: held on its first frame, a standing pose.
    man.mixer.clipAction(man.clips[0]).play();
    man.mixer.timeScale = 0;
    man.mixer.update(0);
    return { name: 'CesiumMan', root: man.root, mixer: man.mixer, humanoid: CESIUM_MAN_HUMANOID };
  }

  // A dropped model: framed to about 1.7 m, its first clip playing; its humanoid by names, the
  // VRM humanoid or the demo's tables. One that cannot be rigged leaves the scene as it was.
  async function loadDropped(file) {
    let model = null;
    try {
      const parsed = await parseDropped(file);
      model = parsed.model;
      frameModel(model);
      const root = new THREE.Group();
      root.name = file.name;
      root.add(model);
      root.updateMatrixWorld(true);
      const mixer = new THREE.AnimationMixer(root);
      if (parsed.gltf.animations.length > 0) mixer.clipAction(parsed.gltf.animations[0]).play();
      mixer.update(0);
      const humanoid = parsed.vrm ? parsed.vrm.humanoid : knownHumanoid(root) ?? 'auto';
      useCharacter({ name: file.name, root, mixer, humanoid });
      if (loaded.dropped) disposeModel(loaded.dropped.root);
      loaded.dropped = { root };
    } catch (error) {
      if (model) disposeModel(model);
      message = `${file.name}: ${error.message ?? error}; the character is unchanged`;
      throw error;
    }
  }
  const stopDrops = listenForDrops(ctx.canvas, loadDropped); // the message says why a file failed

  async function setCharacter(name) {
    try {
      useCharacter(name === 'CesiumMan' ? await cesiumMan() : builtIn());
    } catch (error) {
      message = `${name}: ${error.message ?? error}`;
    }
  }

  /** Puts the targets where the script has them at time `t` (the character's space, turned with it). */
  function place(t) {
    const { rest, root, origin } = character;
    const s = sessionAt(t);
    // The user's walk: the app carries the root with the user (the feet stay planted and step).
    root.position.set(s.move[0], 0, s.move[1]).multiplyScalar(rest.scale).applyQuaternion(root.quaternion).add(origin);
    root.updateMatrixWorld(true);
    _turn.setFromAxisAngle(UP, s.turn);
    const at = (role, local) => {
      handles[role].position.fromArray(local).multiplyScalar(rest.scale).applyQuaternion(_turn);
      root.localToWorld(handles[role].position);
    };
    handles.head.position.copy(rest.head.position).add(_v.fromArray(s.head).multiplyScalar(rest.scale)).applyQuaternion(_turn);
    root.localToWorld(handles.head.position);
    at('leftHand', s.left);
    at('rightHand', s.right);
    root.getWorldQuaternion(_q);
    _pitch.setFromAxisAngle(ACROSS, s.head[4]);
    handles.head.quaternion.setFromAxisAngle(UP, s.turn + s.head[3]).multiply(_pitch).multiply(rest.head.rotation).premultiply(_q);
    for (const role of ['leftHand', 'rightHand']) handles[role].quaternion.copy(_turn).multiply(rest[role].rotation).premultiply(_q);
    // The full-body trackers: the pelvis drops with the head and moves back (a crouch), the left foot lifts while looking around.
    const drop = Math.min(s.head[1], 0) * rest.scale, lift = Math.sin(Math.PI * Math.min(Math.max((t % LOOP) / 3, 0), 1));
    const body = { pelvis: [0, 0.75 * drop, 0.25 * drop], leftFoot: [0, 0.12 * lift * rest.scale, 0.12 * lift * rest.scale], rightFoot: [0, 0, 0] };
    for (const role of BODY) {
      handles[role].position.copy(rest[role].position).add(_v.fromArray(body[role])).applyQuaternion(_turn);
      root.localToWorld(handles[role].position);
      handles[role].quaternion.copy(_turn).multiply(rest[role].rotation).premultiply(_q);
    }
    for (const role of [...TARGETS, ...BODY]) handles[role].updateMatrixWorld();
  }

  function setMode(mode) {
    if (params.mode === mode) return;
    params.mode = mode;
    modeControl?.updateDisplay();
  }

  // ---------------------------------------------------------------- WebXR, where the browser offers it
  const xr = { session: null, tracked: [] };
  async function enterVR() {
    const session = await navigator.xr.requestSession('immersive-vr', { optionalFeatures: ['local-floor'] });
    renderer.xr.enabled = true;
    renderer.xr.setReferenceSpaceType?.('local-floor');
    await renderer.xr.setSession(session);
    xr.session = session;
    // The headset's pose is copied into the camera each frame; the grips are the controllers' grip spaces.
    const grips = [0, 1].map((i) => renderer.xr.getControllerGrip(i));
    scene.add(...grips);
    const { rest, avatar } = character;
    const target = (tracked, role, position, trackedRest) => {
      const t = new THREE.Object3D();
      t.position.fromArray(position);
      t.quaternion.copy(trackedRest).invert().multiply(_q.copy(rest[role].rotation).premultiply(character.root.getWorldQuaternion(new THREE.Quaternion())));
      tracked.add(t);
      return t;
    };
    const basis = (x, y, z) => new THREE.Quaternion().setFromRotationMatrix(new THREE.Matrix4().makeBasis(new THREE.Vector3(...x), new THREE.Vector3(...y), new THREE.Vector3(...z)));
    avatar.head = target(camera, 'head', [0, -0.1, 0.09], basis([-1, 0, 0], [0, 1, 0], [0, 0, -1]));
    avatar.leftHand = target(grips[0], 'leftHand', [-0.02, 0.07, 0], basis([0, -1, 0], [-1, 0, 0], [0, 0, -1]));
    avatar.rightHand = target(grips[1], 'rightHand', [0.02, 0.07, 0], basis([0, 1, 0], [1, 0, 0], [0, 0, -1]));
    xr.tracked = grips;
    setMode('xr');
    session.addEventListener('end', () => {
      for (const grip of xr.tracked) { grip.clear(); scene.remove(grip); }
      camera.clear();
      xr.session = null;
      Object.assign(character.avatar, handlesAsTargets());
      setMode('script');
    });
  }

  await setCharacter('built-in');

  // ---------------------------------------------------------------- GUI
  const gui = ctx.gui;
  gui.add(params, 'character', ['built-in', 'CesiumMan']).name('character').onChange((name) => setCharacter(name));
  modeControl = gui.add(params, 'mode', ['script', 'drag']).name('targets (drag a handle: drag)');
  gui.add(params, 'speed', 0, 2, 0.05).name('script speed');
  for (const key of ['weight', 'headWeight', 'leftHandWeight', 'rightHandWeight']) {
    gui.add(params, key, 0, 1, 0.01).name(key).onChange((v) => { character.avatar[key] = v; });
  }
  gui.add(params, 'fullBody').name('full-body trackers').onChange((v) => setFullBody(v));
  gui.add(params, 'armStretch').name(`arm stretch (up to ${ARM_STRETCH}×)`).onChange((v) => { character.avatar.armStretch = v ? ARM_STRETCH : 1; });
  gui.add(params, 'enabled').name('avatar on (off → blend out)').onChange((v) => { character.avatar.enabled = v; });
  if (navigator.xr && renderer.xr) {
    navigator.xr.isSessionSupported('immersive-vr').then((supported) => {
      if (supported && character) gui.add({ enterVR: () => enterVR().catch((error) => { message = `VR: ${error.message ?? error}`; }) }, 'enterVR').name('enter VR');
    }).catch(() => {}); // no immersive-vr: the scene works without it
  }

  // A leg standing straight to its foot (within 1 mm): the pelvis is as high as the planted
  // feet let it go, so a head target above that is out of reach until the foot steps (a settling
  // step once the body comes still: docs/rig/avatar.md, "Steps").
  const _a = new THREE.Vector3(), _b = new THREE.Vector3(), _c = new THREE.Vector3();
  const legStraight = () => ['left', 'right'].some((side) => {
    const [upper, lower, foot] = ['UpperLeg', 'LowerLeg', 'Foot'].map((part) => character.avatar.humanoid.get(side + part));
    upper.getWorldPosition(_a), lower.getWorldPosition(_b), foot.getWorldPosition(_c);
    return _a.distanceTo(_c) > _a.distanceTo(_b) + _b.distanceTo(_c) - 1e-3;
  });

  const distances = () => Object.fromEntries(tracked().map((role) => [role,
    character.avatar.humanoid.get(ROLES[role]).getWorldPosition(_v).distanceTo(character.avatar[role]?.getWorldPosition(new THREE.Vector3()) ?? _v)]));

  return {
    update(dt) {
      if (!character) return;
      character.mixer.update(dt);
      if (params.mode === 'script') {
        time += dt * params.speed;
        place(time);
      }
      try {
        character.avatar.update(dt);
      } catch (error) {
        message = String(error.message ?? error);
      }
      const d = distances();
      const body = params.fullBody ? `<br>pelvis ${(d.pelvis * 1000).toFixed(1)} mm, feet ${(d.leftFoot * 1000).toFixed(1)} / ${(d.rightFoot * 1000).toFixed(1)} mm` : '';
      const straight = legStraight() ? ' (a leg straight: out of reach until its foot steps, or settles once the body is still)' : '';
      line.innerHTML = `AvatarIK · ${params.character} · ${params.mode}<br>head ${(d.head * 1000).toFixed(1)} mm${straight}, hands ${(d.leftHand * 1000).toFixed(1)} / ${(d.rightHand * 1000).toFixed(1)} mm from their targets${body}`
        + `${message ? `<br><span style="color:#ff7b72">${message}</span>` : ''}`;
    },
    state() {
      return {
        message,
        character: character?.name ?? null,
        mode: params.mode,
        time,
        convention: character?.avatar.humanoid.convention ?? null,
        distances: character ? distances() : null,
        active: character?.avatar.active ?? false,
        xr: Boolean(xr.session),
        fullBody: params.fullBody,
        armStretch: character?.avatar.armStretch ?? 1,
        // The feet's world positions and how far the root has walked (the script's walk and side steps).
        feet: character ? ['leftFoot', 'rightFoot'].map((role) => character.avatar.humanoid.get(role).getWorldPosition(new THREE.Vector3()).toArray()) : null,
        walked: character ? character.root.position.distanceTo(character.origin) : 0,
        // The step the walk crosses (AvatarIK's ground): its height above the floor and its box (world).
        step: character ? { rise: STEP.height * character.rest.scale, box: [..._box.setFromObject(step).min.toArray(), ..._box.max.toArray()] } : null,
        legStraight: character ? legStraight() : false,
      };
    },
    reset() {
      time = 0;
      setMode('script');
    },
    dispose() {
      stopDrops();
      xr.session?.end();
      character?.avatar.dispose();
      character = null;
      scene.remove(step);
      step.geometry.dispose();
      step.material.dispose();
      // Both characters, the one in the scene too (its skeleton's bone texture with it).
      for (const model of [loaded.builtIn, loaded.man, loaded.dropped]) {
        if (!model) continue;
        scene.remove(model.root);
        disposeModel(model.root);
      }
    },
  };
}
