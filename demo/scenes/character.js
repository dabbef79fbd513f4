// A character through IKRig (docs/rig/rig.md): a skinned humanoid walks an oval
// over a low platform with grounding (docs/rig/grounding.md; the ground is a
// function of x and z here), looks at the camera or a target (spine, neck and
// head share the turn), reaches for a cup with its right hand as it passes
// (or, idle, stands by it) and turns off each part without a pop. Drop a
// .glb/.gltf (Mixamo or any humanoid) or a .vrm onto the page to put your own
// character in its place: its bones are mapped by name, or by the VRM
// humanoid, or by the demo's table for CesiumMan; a walk clip played in
// place walks the oval at the speed of its stance feet (demo/lib/clipGait.js).
// A dropped file that cannot be rigged leaves the scene as it was and says why.
import * as THREE from 'three/webgpu';
import { colors, handle, setupStage } from '../lib/stage.js';
import { createHumanoid } from '../lib/humanoid.js';
import { createWalk } from '../lib/walk.js';
import { analyseClip } from '../lib/clipGait.js';
import { disposeModel, knownHumanoid } from '../lib/sampleCharacters.js';
import { frameModel, listenForDrops, parseDropped } from '../lib/droppedModel.js';

const _v = new THREE.Vector3();
const _w = new THREE.Vector3();

// The walk: an oval around the origin, over a 12 cm platform; the cup stands inside it, by the path.
const OVAL = { x: 1.6, z: 1.1 };
const PLATFORM = { x: [-0.7, 0.7], z: [-1.6, -0.6], height: 0.12 };
const inside = (x, z) => x >= PLATFORM.x[0] && x <= PLATFORM.x[1] && z >= PLATFORM.z[0] && z <= PLATFORM.z[1];
/** The ground of this scene as a function (what IKRig's grounding calls with each sole point). */
const groundAt = (x, y, z) => ({ height: inside(x, z) ? PLATFORM.height : 0 });
const CUP_HOME = [-0.3, 1.1, 0.3];
const CUP_BY_PATH = [0.05, 1.05, 0.75];
const WALKING = 0.3; // m/s: a dropped model's clip whose stance feet move back faster walks the oval

export async function create(ctx) {
  const { scene, camera, controls, ikpd, ikpdThree } = ctx;
  setupStage(ctx);
  ctx.bounds.set(new THREE.Vector3(-2, 0.2, -1.5), new THREE.Vector3(2, 2.6, 2.5));
  camera.position.set(0.6, 1.55, 2.6);
  controls.target.set(0, 1.15, 0);

  const params = { look: 'camera', lookAt: true, reach: true, eyeSettleTime: 0.05, grounding: true, twist: true, weight: 1, settleTime: 0.25, idle: true, animation: 'walk' };
  const lookTarget = ctx.draggable('look target', handle(colors.target, 0.06));
  lookTarget.position.set(0.7, 1.7, 1.2);
  const cup = ctx.draggable('cup', handle(colors.accent, 0.05));
  cup.position.set(...CUP_BY_PATH);
  const platform = new THREE.Mesh(
    new THREE.BoxGeometry(PLATFORM.x[1] - PLATFORM.x[0], PLATFORM.height, PLATFORM.z[1] - PLATFORM.z[0]),
    new THREE.MeshStandardMaterial({ color: 0x55606e, roughness: 0.85 }),
  );
  platform.position.set(0, PLATFORM.height / 2, (PLATFORM.z[0] + PLATFORM.z[1]) / 2);
  platform.receiveShadow = true;
  scene.add(lookTarget, cup, platform);

  const status = ctx.panel('Character', 'bottom-right');
  const line = document.createElement('div');
  status.appendChild(line);
  const hint = document.createElement('div');
  hint.className = 'hint';
  hint.textContent = 'Drop a .glb, .gltf or .vrm humanoid here to use your own character.';
  status.appendChild(hint);

  // ---------------------------------------------------------------- the character and its rig
  let character = null; // { root, mixer, walk, rig, constraints, dispose() }
  let message = '';

  function rigCharacter(root, humanoid, mixer) {
    // Over its skeleton (the SkinnedMesh's bones): the rig's root is then the object the walk
    // moves, whose own y = 0 plane is the ground the animation is authored on.
    const skinned = root.isSkinnedMesh ? root : root.getObjectByProperty('isSkinnedMesh', true);
    let rig = new ikpdThree.IKRig(ikpd, skinned ?? root, { humanoid });
    if (rig.humanoid.size === 0 && humanoid === 'auto' && knownHumanoid(root)) {
      // Names ikpd does not detect but the demo knows (CesiumMan's COLLADA names).
      rig.dispose();
      rig = new ikpdThree.IKRig(ikpd, skinned ?? root, { humanoid: knownHumanoid(root) });
    }
    if (rig.humanoid.size === 0) {
      rig.dispose();
      throw new Error('not a humanoid: its bone names match none of Mixamo, VRM, VRoid or CesiumMan, so there are no hips, legs, spine and arms to rig (the character scene needs a humanoid; four-legged and other rigs: see docs/rig/rig.md)');
    }
    const c = {};
    try {
      const look = () => (params.look === 'camera' ? camera : lookTarget);
      // Feet first, so the look-at and the reach start from the grounded pelvis.
      c.grounding = rig.add('grounding', {
        legs: [['leftUpperLeg', 'leftLowerLeg', 'leftFoot'], ['rightUpperLeg', 'rightLowerLeg', 'rightFoot']],
        ground: groundAt, enabled: params.grounding,
      });
      // On a humanoid with eye bones the look-at turns them too (eyes: 'auto'): they lead the head.
      c.lookAt = rig.add('lookAt', { target: look(), settleTime: params.settleTime, enabled: params.lookAt, eyeSettleTime: params.eyeSettleTime });
      c.reach = rig.add('twoBone', {
        bones: ['rightUpperArm', 'rightLowerArm', 'rightHand'], target: cup, settleTime: params.settleTime,
        enabled: params.reach, weight: params.weight,
      });
      // The reaching hand's twist shared with its forearm (docs/rig/twist.md): the hand stays on the cup.
      c.twist = rig.add('twist', { bones: ['rightLowerArm', 'rightHand'], settleTime: params.settleTime, enabled: params.twist });
    } catch (error) {
      rig.dispose();
      throw error;
    }
    return { rig, c, mixer };
  }

  /** A character and its rig, built completely but not yet in the scene (disposed here if rigging fails). */
  function buildCharacter(root, humanoid, mixer, disposeExtra) {
    const dispose = () => {
      mixer?.stopAllAction();
      mixer?.uncacheRoot(root);
      scene.remove(root);
      disposeExtra?.();
      disposeModel(root); // its GPU resources go with it (a dropped model's textures included)
    };
    let rigged;
    try {
      rigged = rigCharacter(root, humanoid, mixer);
    } catch (error) {
      dispose();
      throw error;
    }
    return { root, ...rigged, walk: null, dispose() { rigged.rig.dispose(); dispose(); } };
  }

  /** Puts a built character in the scene in place of the current one. */
  function useCharacter(built) {
    character?.dispose();
    scene.add(built.root);
    character = built;
    message = '';
  }

  function builtIn() {
    const human = createHumanoid({ names: 'mixamo' });
    const mixer = new THREE.AnimationMixer(human.root);
    mixer.clipAction(human.idle).play();
    mixer.update(0);
    human.root.updateMatrixWorld(true);
    // The walk takes the idle's place while walking (the rig reads the rest pose first, so rig before walking).
    const built = buildCharacter(human.root, 'auto', mixer, () => human.skeleton.dispose());
    const cycle = createWalk(human.bones, { speed: 0.75, stride: 0.8 });
    built.walk = { root: human.root, cycle, speed: cycle.speed, phase: 0 };
    useCharacter(built);
    setAnimation(params.animation);
  }

  // A dropped model: framed to about 1.7 m, facing +Z, its first clip playing; a walk clip
  // (its stance feet moving back) walks the oval. Everything is built before anything in the
  // scene changes: a file that fails leaves the scene as it was, with a message saying why.
  async function loadDropped(file) {
    let holder = null;
    try {
      const { gltf, vrm, model } = await parseDropped(file);
      // The walk moves the holder; the model keeps its framing inside it.
      holder = new THREE.Group();
      holder.name = file.name;
      holder.add(model);
      frameModel(model);
      holder.updateMatrixWorld(true);
      const mixer = gltf.animations.length > 0 ? new THREE.AnimationMixer(holder) : null;
      const built = buildCharacter(holder, vrm ? vrm.humanoid : 'auto', mixer);
      holder = null; // built owns it now
      try {
        if (mixer) {
          const clip = gltf.animations[0];
          const feet = ['left', 'right'].map((side) => built.rig.bone(`${side}Toes`) ?? built.rig.bone(`${side}Foot`));
          const speed = feet.every(Boolean) ? analyseClip(built.root, mixer, clip, feet).speed : 0;
          mixer.clipAction(clip).play();
          if (speed > WALKING) built.walk = { root: built.root, mixer, speed, phase: 0 };
        }
      } catch (error) {
        built.dispose();
        throw error;
      }
      useCharacter(built);
      setAnimation(params.animation); // a walk clip walks the oval; another clip plays by the cup
    } catch (error) {
      if (holder) disposeModel(holder);
      message = `${file.name}: ${error.message ?? error}; the character is unchanged`;
      throw error;
    }
  }

  const stopDrops = listenForDrops(ctx.canvas, loadDropped); // the message says why a file failed
  // The browser test's way in: a File built from glTF bytes.
  ctx.loadCharacter = (file) => loadDropped(file);

  // ---------------------------------------------------------------- walking
  const heightPd = new ikpd.PD({ settleTime: 0.25, value: 0 });
  const oval = { theta: 0 };

  /** 'walk' (the built-in character), 'idle' (its clip, standing by the cup) or 'still'. */
  function setAnimation(mode) {
    const walk = character?.walk;
    if (walk) {
      walk.cycle?.rest();
      walk.root.position.set(0, 0, 0);
      walk.root.rotation.set(0, 0, 0);
      walk.root.updateMatrixWorld(true);
    }
    // The built-in walk is procedural (its idle clip waits); a dropped model's walk is its clip.
    if (character?.mixer) character.mixer.timeScale = mode === 'idle' || (mode === 'walk' && !walk?.cycle) ? 1 : 0;
    ctx.moveDraggable('cup', mode === 'walk' && walk ? CUP_BY_PATH : CUP_HOME);
    if (character?.c.reach) character.c.reach.enabled = params.reach; // walking turns it on only by the cup
    oval.theta = 0;
  }

  // One step along the oval (clockwise from above, the cup on the right hand's side), the walk posed there.
  function walkStep(walk, dt) {
    const speed = walk.speed;
    if (walk.cycle) walk.phase += (speed / walk.cycle.stride) * dt;
    else walk.mixer.update(dt);
    // Arc length → angle: dθ = ds / |dP/dθ|.
    const tx = OVAL.x * Math.cos(oval.theta), tz = -OVAL.z * Math.sin(oval.theta);
    oval.theta -= (speed * dt) / Math.hypot(tx, tz);
    const x = OVAL.x * Math.sin(oval.theta), z = OVAL.z * Math.cos(oval.theta);
    const root = walk.root;
    root.position.set(x, heightPd.update(dt, groundAt(x, 0, z).height), z);
    root.rotation.set(0, Math.atan2(-OVAL.x * Math.cos(oval.theta), OVAL.z * Math.sin(oval.theta)), 0);
    walk.cycle?.pose(walk.phase);
    root.updateMatrixWorld(true);
    // Reach for the cup while it is within the arm's reach (enabled blends the reach in and out).
    const shoulder = character.rig.bone('rightUpperArm')?.getWorldPosition(_w);
    const near = shoulder ? shoulder.distanceTo(cup.position) < 0.55 : false;
    const reach = character.c.reach;
    if (reach) reach.enabled = params.reach && near;
  }

  builtIn();

  // ---------------------------------------------------------------- GUI
  const gui = ctx.gui;
  const set = (name, key, value) => { const c = character?.c[name]; if (c) c[key] = value; };
  gui.add(params, 'look', ['camera', 'target']).name('look at').onChange((v) => {
    set('lookAt', 'target', v === 'camera' ? camera : lookTarget);
  });
  gui.add(params, 'lookAt').name('look-at on (off → blend out)').onChange((v) => set('lookAt', 'enabled', v));
  gui.add(params, 'eyeSettleTime', 0.01, 0.5, 0.01).name('eyes settle time (s)').onChange((v) => set('lookAt', 'eyeSettleTime', v));
  gui.add(params, 'reach').name('reach on (off → blend out)').onChange((v) => set('reach', 'enabled', v));
  gui.add(params, 'weight', 0, 1, 0.01).name('reach weight').onChange((v) => set('reach', 'weight', v));
  gui.add(params, 'settleTime', 0, 1, 0.01).name('settle time (s)').onChange((v) => { set('lookAt', 'settleTime', Math.max(v, 0.01)); set('reach', 'settleTime', v); });
  gui.add(params, 'animation', ['walk', 'idle', 'still']).name('animation').onChange(setAnimation);
  gui.add(params, 'grounding').name('grounding on (off → blend out)').onChange((v) => set('grounding', 'enabled', v));
  gui.add(params, 'twist').name('forearm twist (off → blend out)').onChange((v) => set('twist', 'enabled', v));
  gui.add({ reset: builtIn }, 'reset').name('built-in character');

  return {
    update(dt) {
      if (!character) return;
      if (params.animation === 'walk' && character.walk) walkStep(character.walk, dt);
      else character.mixer?.update(dt);
      try {
        character.rig.update(dt);
      } catch (error) {
        message = String(error.message ?? error);
      }
      const reach = character.c.reach;
      const hand = character.rig.bone('rightHand');
      const gap = hand ? hand.getWorldPosition(_v).distanceTo(cup.position) : NaN;
      line.innerHTML = `IKRig · ${character.rig.constraints.length} constraints · hand ${reach?.reached ? 'on the cup' : `${(gap * 100).toFixed(1)} cm from the cup`}`
        + `${message ? `<br><span style="color:#ff7b72">${message}</span>` : ''}`;
    },
    state() {
      const hand = character?.rig.bone('rightHand');
      return {
        message,
        constraints: character?.rig.constraints.map((c) => c.kind) ?? [],
        eyes: character?.c.lookAt?.eyes.map((bone) => bone.name) ?? [],
        humanoid: character ? [...character.rig.humanoid.keys()] : [],
        handToCup: hand ? hand.getWorldPosition(_v).distanceTo(cup.position) : null,
        reached: character?.c.reach?.reached ?? false,
        animation: params.animation,
        root: character ? character.root.position.toArray() : null,
        grounded: character?.c.grounding ? { reached: character.c.grounding.reached, distance: character.c.grounding.distance } : null,
        twist: character?.c.twist ? { enabled: character.c.twist.enabled, radians: character.c.twist.distance } : null,
        lookAt: character?.c.lookAt ? { enabled: character.c.lookAt.enabled, reached: character.c.lookAt.reached, distance: character.c.lookAt.distance } : null,
        name: character ? character.root.name || 'built-in' : null,
        walking: Boolean(character?.walk),
        // Each toe's (else foot's) height above the ground under it.
        toes: character ? ['left', 'right'].map((side) => {
          const toe = character.rig.bone(`${side}Toes`) ?? character.rig.bone(`${side}Foot`);
          if (!toe) return null;
          toe.getWorldPosition(_v);
          return _v.y - groundAt(_v.x, 0, _v.z).height;
        }) : [],
      };
    },
    dispose() {
      stopDrops();
      character?.dispose();
      character = null;
      heightPd.dispose();
    },
  };
}
