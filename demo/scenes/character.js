// A character through IKRig (docs/rig.md): a skinned humanoid plays its idle,
// looks at the camera or a target (spine, neck and head share the turn),
// reaches for a cup with its right hand and turns off each part without a
// pop. Drop a .glb/.gltf (Mixamo or any humanoid) or a .vrm onto the page to
// put your own character in its place: its bones are mapped by name, or by
// the VRM humanoid.
import * as THREE from 'three/webgpu';
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js';
import { colors, handle, setupStage } from '../lib/stage.js';
import { createHumanoid } from '../lib/humanoid.js';

const _v = new THREE.Vector3();

/** The VRM loader plugin, loaded on the first .vrm dropped (three-vrm stays out of the main bundle). */
async function vrmPlugin(parser) {
  const { VRMLoaderPlugin } = await import('@pixiv/three-vrm');
  return new VRMLoaderPlugin(parser);
}

export async function create(ctx) {
  const { scene, camera, controls, ikpd, ikpdThree } = ctx;
  setupStage(ctx);
  ctx.bounds.set(new THREE.Vector3(-2, 0.2, -1.5), new THREE.Vector3(2, 2.6, 2.5));
  camera.position.set(0.6, 1.55, 2.6);
  controls.target.set(0, 1.15, 0);

  const params = { look: 'camera', lookAt: true, reach: true, eyeSettleTime: 0.05, weight: 1, settleTime: 0.25, idle: true };
  const lookTarget = ctx.draggable('look target', handle(colors.target, 0.06));
  lookTarget.position.set(0.7, 1.7, 1.2);
  const cup = ctx.draggable('cup', handle(colors.accent, 0.05));
  cup.position.set(-0.3, 1.1, 0.3);
  scene.add(lookTarget, cup);

  const status = ctx.panel('Character', 'bottom-right');
  const line = document.createElement('div');
  status.appendChild(line);
  const hint = document.createElement('div');
  hint.className = 'hint';
  hint.textContent = 'Drop a .glb, .gltf or .vrm humanoid here to use your own character.';
  status.appendChild(hint);

  // ---------------------------------------------------------------- the character and its rig
  let character = null; // { root, mixer, rig, constraints, dispose() }
  let message = '';

  function rigCharacter(root, humanoid, mixer) {
    const rig = new ikpdThree.IKRig(ikpd, root, { humanoid });
    const c = {};
    try {
      const look = () => (params.look === 'camera' ? camera : lookTarget);
      // On a humanoid with eye bones the look-at turns them too (eyes: 'auto'): they lead the head.
      c.lookAt = rig.add('lookAt', { target: look(), settleTime: params.settleTime, enabled: params.lookAt, eyeSettleTime: params.eyeSettleTime });
      c.reach = rig.add('twoBone', {
        bones: ['rightUpperArm', 'rightLowerArm', 'rightHand'], target: cup, settleTime: params.settleTime,
        enabled: params.reach, weight: params.weight,
      });
    } catch (error) {
      rig.dispose();
      throw error;
    }
    return { rig, c, mixer };
  }

  function useCharacter(root, humanoid, mixer, disposeExtra) {
    const rigged = rigCharacter(root, humanoid, mixer);
    character?.dispose();
    scene.add(root);
    character = {
      root, ...rigged,
      dispose() {
        rigged.rig.dispose();
        mixer?.stopAllAction();
        mixer?.uncacheRoot(root);
        scene.remove(root);
        disposeExtra?.();
        // Its GPU resources go with it (a dropped model's textures included).
        root.traverse((o) => {
          o.geometry?.dispose();
          for (const material of [o.material ?? []].flat()) {
            for (const value of Object.values(material)) if (value?.isTexture) value.dispose();
            material.dispose();
          }
          if (o.isSkinnedMesh) o.skeleton.dispose();
        });
      },
    };
    message = '';
  }

  function builtIn() {
    const human = createHumanoid({ names: 'mixamo' });
    const mixer = new THREE.AnimationMixer(human.root);
    mixer.clipAction(human.idle).play();
    mixer.update(0);
    human.root.updateMatrixWorld(true);
    useCharacter(human.root, 'auto', mixer, () => human.skeleton.dispose());
  }
  builtIn();

  // A dropped model: framed to about 1.7 m, facing +Z, its first clip playing.
  async function loadDropped(file) {
    const loader = new GLTFLoader();
    if (/\.vrm$/i.test(file.name)) loader.register(vrmPlugin);
    const gltf = await loader.parseAsync(await file.arrayBuffer(), '');
    const vrm = gltf.userData.vrm;
    const root = vrm ? vrm.scene : gltf.scene;
    // Framed by its bones (toes to head about 1.6 m), else by its meshes: standing at the origin.
    root.updateMatrixWorld(true);
    const box = new THREE.Box3();
    root.traverse((o) => { if (o.isBone) box.expandByPoint(o.getWorldPosition(_v)); });
    if (box.isEmpty()) box.setFromObject(root);
    const height = box.max.y - box.min.y;
    if (height > 1e-6) {
      const scale = (box.isEmpty() ? 1.7 : 1.6) / height;
      root.scale.multiplyScalar(scale);
      root.position.set(-0.5 * (box.min.x + box.max.x), -box.min.y, -0.5 * (box.min.z + box.max.z)).multiplyScalar(scale);
    }
    root.updateMatrixWorld(true);
    let mixer = null;
    if (gltf.animations.length > 0) {
      mixer = new THREE.AnimationMixer(root);
      mixer.clipAction(gltf.animations[0]).play();
    }
    useCharacter(root, vrm ? vrm.humanoid : 'auto', mixer);
  }

  const onDragOver = (event) => event.preventDefault();
  const onDrop = (event) => {
    event.preventDefault();
    const file = event.dataTransfer?.files?.[0];
    if (!file) return;
    loadDropped(file).catch((error) => {
      message = `${file.name}: ${error.message ?? error}`;
    });
  };
  ctx.canvas.addEventListener('dragover', onDragOver);
  ctx.canvas.addEventListener('drop', onDrop);
  // The browser test's way in: a File built from glTF bytes.
  ctx.loadCharacter = (file) => loadDropped(file);

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
  gui.add(params, 'idle').name('animation').onChange((on) => { if (character?.mixer) character.mixer.timeScale = on ? 1 : 0; });
  gui.add({ reset: builtIn }, 'reset').name('built-in character');

  return {
    update(dt) {
      if (!character) return;
      character.mixer?.update(dt);
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
      };
    },
    dispose() {
      ctx.canvas.removeEventListener('dragover', onDragOver);
      ctx.canvas.removeEventListener('drop', onDrop);
      character?.dispose();
      character = null;
    },
  };
}
