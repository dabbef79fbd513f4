// Real characters (demo/assets/README.md) through IKRig: CesiumMan walks the
// grounding course (demo/lib/course.js) with its own walk clip, moved forward
// at the clip's speed, with a grounding on the course's meshes and a look-at;
// the Fox walks, runs or surveys on hills with a four-legged grounding
// (docs/rig/grounding.md). The panel reads how far stance soles are from
// their target (the ground plus the clip's own clearance) and how far they
// slide, as the grounding scene does (docs/demo.md, "Sample characters").
import * as THREE from 'three/webgpu';
import { acceleratedRaycast, computeBoundsTree, disposeBoundsTree } from 'three-mesh-bvh';
import { colors, handle, setupStage } from '../lib/stage.js';
import { createCourse, heightAt, loopAt } from '../lib/course.js';
import { terrainHeight, terrainNormal } from '../lib/terrain.js';
import { CESIUM_MAN_HUMANOID, FOX_GROUNDING, disposeModel, loadSample } from '../lib/sampleCharacters.js';
import { createWalker } from '../lib/sampleWalker.js';

const _v = new THREE.Vector3();
const _down = new THREE.Vector3(0, -1, 0);
const FOX_SCALE = 0.01; // the Fox is in centimetres
const FOX_CIRCLE = 3.2; // the Fox walks a circle of this radius on the hills

// The hills under the Fox: the crowd scene's ground (an exact height and normal, no raycast).
const _normal = new Float64Array(3);
const hillGround = { height: 0, normal: new THREE.Vector3() };
function hillsAt(x, y, z) {
  terrainNormal(x, z, _normal, 0);
  hillGround.height = terrainHeight(x, z);
  hillGround.normal.set(_normal[0], _normal[1], _normal[2]);
  return hillGround;
}
function circleAt(s, out) {
  const a = s / FOX_CIRCLE;
  out.x = FOX_CIRCLE * Math.sin(a);
  out.z = FOX_CIRCLE * Math.cos(a);
  out.heading = a + Math.PI / 2; // along the circle, counter-clockwise seen from above
  return out;
}

export async function create(ctx) {
  const { scene, camera, controls, ikpd, ikpdThree } = ctx;
  setupStage(ctx, { ground: false, size: 22, shadowExtent: 10 });

  // The course (CesiumMan), its meshes accelerated by three-mesh-bvh, and the hills (the Fox).
  const course = createCourse();
  for (const mesh of course.meshes) {
    mesh.geometry.computeBoundsTree = computeBoundsTree;
    mesh.geometry.disposeBoundsTree = disposeBoundsTree;
    mesh.geometry.computeBoundsTree();
    mesh.raycast = acceleratedRaycast;
  }
  const courseWorld = new THREE.Group();
  courseWorld.add(course.floor, course.solids);
  const hillGeometry = new THREE.PlaneGeometry(24, 24, 120, 120).rotateX(-Math.PI / 2);
  const p = hillGeometry.attributes.position;
  for (let i = 0; i < p.count; i++) p.setY(i, terrainHeight(p.getX(i), p.getZ(i)));
  hillGeometry.computeVertexNormals();
  const hills = new THREE.Mesh(hillGeometry, new THREE.MeshStandardMaterial({ color: 0x3b4a3a, roughness: 0.95, flatShading: true }));
  hills.receiveShadow = true;
  const hillWorld = new THREE.Group();
  hillWorld.add(hills);
  scene.add(courseWorld, hillWorld);
  scene.updateMatrixWorld(true);

  const raycaster = new THREE.Raycaster();
  raycaster.firstHitOnly = true;
  const hits = [];
  // The course's height under (x, z), from its meshes (what the grounding raycasts).
  function courseHeight(x, z) {
    raycaster.set(_v.set(x, 3, z), _down);
    hits.length = 0;
    raycaster.intersectObjects(course.meshes, false, hits);
    const y = hits.length ? hits[0].point.y : 0;
    hits.length = 0;
    return y;
  }

  const lookTarget = ctx.draggable('look target', handle(colors.target, 0.06));
  scene.add(lookTarget);
  const params = { character: 'CesiumMan', clip: 'animation_0', speed: 1, grounding: true, lookAt: true, follow: true };

  // ---------------------------------------------------------------- the characters
  const [man, fox] = await Promise.all([loadSample('CesiumMan'), loadSample('Fox')]);
  const walkers = {};
  try {
    {
      const rig = new ikpdThree.IKRig(ikpd, man.skinned, { humanoid: CESIUM_MAN_HUMANOID });
      const grounding = rig.add('grounding', { ground: course.meshes });
      const lookAt = rig.add('lookAt', { target: lookTarget });
      const feet = ['leftToes', 'rightToes'].map((role) => rig.bone(role));
      walkers.CesiumMan = Object.assign(createWalker({ ikpd, root: man.root, clips: man.clips, rig, grounding, feet, path: loopAt, heightAt, groundHeight: courseHeight }), {
        model: man, world: courseWorld, lookAt, look: [0, 1.1, 0], bounds: [[-10, 0, -6], [10, 3, 6]], camera: [-2.2, 0.8, 3.0], frame: 0.7,
      });
    }
    {
      fox.root.scale.setScalar(FOX_SCALE);
      // Its bones are in centimetres: plantSpeed is in the rig's model units (cm/s here).
      const rig = new ikpdThree.IKRig(ikpd, fox.skinned, { humanoid: 'none' });
      const grounding = rig.add('grounding', { ...FOX_GROUNDING, ground: hillsAt, plantSpeed: 20 });
      const lookAt = rig.add('lookAt', { bones: ['b_Neck_04', 'b_Head_05'], target: lookTarget });
      const feet = FOX_GROUNDING.legs.map((leg) => rig.bone(leg[leg.length - 1]));
      walkers.Fox = Object.assign(createWalker({ ikpd, root: fox.root, clips: fox.clips, rig, grounding, feet, path: circleAt, heightAt: terrainHeight }), {
        model: fox, world: hillWorld, lookAt, look: [0, 0.5, 0], bounds: [[-8, -1, -8], [8, 3, 8]], camera: [-2.0, 0.7, 2.6], frame: 0.3,
      });
      walkers.Fox.setClip('Walk');
    }
  } catch (error) {
    for (const w of Object.values(walkers)) w.dispose();
    for (const m of [man, fox]) disposeModel(m.root);
    throw error;
  }
  for (const w of Object.values(walkers)) {
    w.look[1] += w === walkers.Fox ? terrainHeight(0, 0) : 0;
    w.look = new THREE.Vector3(...w.look);
    scene.add(w.root);
  }
  let walker = null;

  function useCharacter(name) {
    walker = walkers[name];
    params.character = name;
    for (const w of Object.values(walkers)) {
      w.world.visible = w.root.visible = w === walker;
    }
    ctx.bounds.set(new THREE.Vector3(...walker.bounds[0]), new THREE.Vector3(...walker.bounds[1]));
    ctx.moveDraggable('look target', walker.look.toArray());
    walker.lookAt.target = lookTarget;
    walker.grounding.enabled = params.grounding;
    walker.lookAt.enabled = params.lookAt;
    walker.speedScale = params.speed;
    params.clip = walker.clip.name;
    clipControl = clipControl.options(walker.model.clips.map((c) => c.name)).name('clip').onChange(setClip);
    clipControl.updateDisplay();
    // Frame it: the camera beside and above its start (`frame`: the height looked at).
    walker.update(0);
    const root = walker.root.position;
    controls.target.set(root.x, root.y + walker.frame, root.z);
    camera.position.set(...walker.camera).add(controls.target);
    controls.update();
  }
  function setClip(name) {
    walker.setClip(name);
    params.clip = walker.clip.name;
  }

  // ---------------------------------------------------------------- GUI and readout
  const gui = ctx.gui;
  gui.add(params, 'character', Object.keys(walkers)).name('character').onChange(useCharacter);
  let clipControl = gui.add(params, 'clip', walkers.CesiumMan.model.clips.map((c) => c.name)).name('clip').onChange(setClip);
  gui.add(params, 'speed', 0, 2, 0.01).name('speed (×)').onChange((v) => { walker.speedScale = v; });
  gui.add(params, 'grounding').name('grounding on (off → blend out)').onChange((v) => { walker.grounding.enabled = v; });
  gui.add(params, 'lookAt').name('look-at on (off → blend out)').onChange((v) => { walker.lookAt.enabled = v; });
  gui.add(params, 'follow').name('camera follows');

  const panel = ctx.panel('Sample character', 'bottom-right');
  const line = document.createElement('div');
  panel.appendChild(line);
  const follow = new THREE.Vector3();
  const mm = (x) => `${(1000 * x).toFixed(1)} mm`;
  // The constraint's own result (docs/rig/grounding.md, "Result").
  const groundingText = (g) => (g.reached ? 'planted soles on target' : g.distance > 0 ? `a planted sole ${mm(g.distance)} from target` : 'no foot planted');

  useCharacter('CesiumMan');

  return {
    update(dt) {
      walker.update(dt);
      if (params.follow) {
        const root = walker.root.position;
        follow.set(root.x, root.y + walker.frame, root.z).sub(controls.target).multiplyScalar(Math.min(1, dt * 2));
        controls.target.add(follow);
        camera.position.add(follow);
      }
      line.innerHTML = `${params.character} · ${walker.clip.name} at ${walker.speed.toFixed(2)} m/s<br>`
        + `stance sole to its target: ${mm(walker.soleError)} · stance sole slide: ${mm(walker.slide)}<br>`
        + `grounding: ${walker.grounding.enabled ? groundingText(walker.grounding) : 'off'} · look-at ${walker.lookAt.enabled ? 'on' : 'off'}`;
    },
    state() {
      const head = walker.rig.bone(walker === walkers.Fox ? 'b_Head_05' : 'head');
      return {
        character: params.character,
        clip: walker.clip.name,
        clips: walker.model.clips.map((c) => c.name),
        speed: walker.speed,
        constraints: walker.rig.constraints.map((c) => c.kind),
        grounding: { enabled: walker.grounding.enabled, reached: walker.grounding.reached, distance: walker.grounding.distance },
        lookAt: { enabled: walker.lookAt.enabled, reached: walker.lookAt.reached, distance: walker.lookAt.distance },
        head: head.getWorldPosition(_v).toArray(),
        forward: _v.set(0, 0, 1).applyQuaternion(walker.root.quaternion).toArray(),
        soleError: walker.soleError,
        slide: walker.slide,
        summary: walker.summary(),
        feet: walker.feet.map((f) => ({ stance: f.stance, error: f.error, slide: f.slide })),
        root: walker.root.position.toArray(),
        distance: walker.s,
        frames: walker.frames,
      };
    },
    dispose() {
      for (const w of Object.values(walkers)) {
        w.dispose();
        disposeModel(w.root);
      }
      for (const mesh of course.meshes) mesh.geometry.disposeBoundsTree();
    },
  };
}
