// Grounding (docs/rig/grounding.md): a skinned humanoid walks a loop over a 20°
// ramp, a platform, stairs, a 15 cm step, a sideways slope and bumps. Its
// walk (demo/lib/walk.js) is authored on flat ground; an IKRig 'grounding'
// constraint raycasts the course (accelerated by three-mesh-bvh) under each
// foot, puts the soles on it, turns them to its slope, lowers the pelvis and
// locks planted feet. A ghost plays the same walk with grounding off. Each
// part can be turned off (it blends out without a pop); the panel reads the
// stance soles' distance to the ground and how far planted feet slide.
import * as THREE from 'three/webgpu';
import { acceleratedRaycast, computeBoundsTree, disposeBoundsTree } from 'three-mesh-bvh';
import { ghostMaterial, setupStage } from '../lib/stage.js';
import { createHumanoid } from '../lib/humanoid.js';
import { createWalk } from '../lib/walk.js';
import { createCourse, heightAt, loopAt, loopLength } from '../lib/course.js';

const SOLE = 0.02; // the humanoid's toe height above its sole at rest: the toes are the legs' effectors
const SIDES = ['left', 'right'];
const _v = new THREE.Vector3();
const _down = new THREE.Vector3(0, -1, 0);
const _q = new THREE.Quaternion();
const _r = new THREE.Quaternion();
const _n = new THREE.Vector3();

/** A walker: a humanoid, its walk, and where it is on the loop. */
function addWalker(scene, material) {
  const human = createHumanoid({ names: 'mixamo', material });
  scene.add(human.root);
  human.walk = createWalk(human.bones);
  return human;
}

export async function create(ctx) {
  const { scene, camera, controls, ikpd, ikpdThree } = ctx;
  setupStage(ctx, { ground: false, size: 22, shadowExtent: 10 });
  ctx.bounds.set(new THREE.Vector3(-10, 0, -6), new THREE.Vector3(10, 3, 6));
  camera.position.set(-4.5, 2.4, 6.5);
  controls.target.set(-3, 0.6, 2.5);

  // The course, its meshes accelerated by three-mesh-bvh (the user's call, not ikpd's).
  const course = createCourse();
  for (const mesh of course.meshes) {
    mesh.geometry.computeBoundsTree = computeBoundsTree;
    mesh.geometry.disposeBoundsTree = disposeBoundsTree;
    mesh.geometry.computeBoundsTree();
    mesh.raycast = acceleratedRaycast;
  }
  scene.add(course.floor, course.solids);
  const grid = new THREE.GridHelper(30, 60, 0x3a3e47, 0x3a3e47);
  grid.material.transparent = true;
  grid.material.opacity = 0.3;
  grid.position.y = 0.002;
  scene.add(grid);
  scene.updateMatrixWorld(true);

  const human = addWalker(scene);
  const ghostLook = ghostMaterial(0.3);
  const ghost = addWalker(scene, ghostLook);
  ghost.mesh.castShadow = false;
  ctx.label(ghost.bones.head, 'grounding off', [0, 0.42, 0]);

  const params = { grounding: true, height: true, rotation: true, pelvis: true, plant: true, ghost: true, speed: 1, settleTime: 0.1, follow: true };
  const rig = new ikpdThree.IKRig(ikpd, human.mesh);
  const ground = rig.add('grounding', { ground: course.meshes, settleTime: params.settleTime });
  const defaults = { maxFootPitch: ground.maxFootPitch, maxFootRoll: ground.maxFootRoll, maxPelvisDrop: ground.maxPelvisDrop, maxPelvisRise: ground.maxPelvisRise };

  // "Feet height" off: the feet keep the authored height, still turned to the course's slope.
  const raycaster = new THREE.Raycaster();
  raycaster.firstHitOnly = true;
  const normalOnly = (x, y, z) => {
    raycaster.set(_v.set(x, y + 2, z), _down);
    const hit = raycaster.intersectObjects(course.meshes, false)[0];
    return { height: human.root.position.y, normal: hit ? hit.face.normal : null };
  };

  const gui = ctx.gui;
  const on = () => params.grounding;
  gui.add(params, 'grounding').name('grounding on (off → blend out)').onChange((v) => { ground.enabled = v; });
  ctx.enableWhen(gui.add(params, 'height').name('feet to the ground height').onChange((v) => { ground.ground = v ? course.meshes : normalOnly; }), on);
  ctx.enableWhen(gui.add(params, 'rotation').name('feet to the slope').onChange((v) => {
    ground.maxFootPitch = v ? defaults.maxFootPitch : 0;
    ground.maxFootRoll = v ? defaults.maxFootRoll : 0;
  }), on);
  ctx.enableWhen(gui.add(params, 'pelvis').name('pelvis drop').onChange((v) => {
    ground.maxPelvisDrop = v ? defaults.maxPelvisDrop : 0;
    ground.maxPelvisRise = v ? defaults.maxPelvisRise : 0;
  }), on);
  ctx.enableWhen(gui.add(params, 'plant').name('plant lock').onChange((v) => { ground.plant.fill(v ? -1 : 0); }), on);
  gui.add(params, 'settleTime', 0.02, 0.5, 0.01).name('settle time (s)').onChange((v) => { ground.settleTime = v; });
  gui.add(params, 'speed', 0, 1.5, 0.01).name('walk speed (×)');
  gui.add(params, 'ghost').name('ghost (grounding off)').onChange((v) => { ghost.root.visible = v; });
  gui.add(params, 'follow').name('camera follows');

  const panel = ctx.panel('Grounding', 'bottom-right');
  const line = document.createElement('div');
  panel.appendChild(line);

  // Where the walkers are: arc length on the loop, walk phase, root height (smoothed).
  const state = { s: 0, phase: 0, rootY: 0, time: 0 };
  const heightPd = new ikpd.PD({ settleTime: 0.25, value: 0 });
  const feet = SIDES.map((side) => ({ side, planted: false, start: new THREE.Vector3(), ghostStart: new THREE.Vector3(), slide: 0, error: 0, ghostError: 0 }));
  const stats = { soleError: 0, ghostSoleError: 0, slide: 0, frames: 0 };
  const at = { x: 0, z: 0, heading: 0 };
  const follow = new THREE.Vector3();

  function place(walker) {
    walker.root.position.set(at.x, state.rootY, at.z);
    walker.root.rotation.set(0, at.heading, 0);
    walker.walk.pose(state.phase);
    walker.root.updateMatrixWorld(true);
  }

  // The distance of a sole point from the course under it, along the course's normal there.
  function groundDistance(sole) {
    raycaster.set(_v.set(sole.x, sole.y + 1.5, sole.z), _down);
    const hit = raycaster.intersectObjects(course.meshes, false)[0];
    if (!hit) return 0;
    _n.copy(hit.face.normal).transformDirection(hit.object.matrixWorld);
    return Math.abs(_v.subVectors(sole, hit.point).dot(_n));
  }

  // A toe's sole point: the toe less its sole offset along the foot's up, turned as the
  // foot turned from the animation (the ghost's toe: the same walk, untouched).
  function solePoint(walker, side, out) {
    walker.bones[`${side}Toes`].getWorldPosition(out);
    human.bones[`${side}Toes`].getWorldQuaternion(_q).multiply(ghost.bones[`${side}Toes`].getWorldQuaternion(_r).invert());
    if (walker === ghost) _q.identity();
    return out.addScaledVector(_n.set(0, 1, 0).applyQuaternion(_q), -SOLE);
  }

  // Sole-to-ground distance of each stance foot, and how much farther a planted foot moved since it
  // planted than the walk's own foot (the ghost's) did: a lock the leg cannot reach follows the
  // animated foot (docs/rig/grounding.md, "Plant lock").
  const _sole = new THREE.Vector3(), _ghostSole = new THREE.Vector3();
  function measure() {
    let worst = 0, worstGhost = 0, slide = 0;
    for (const foot of feet) {
      const stance = human.walk.stance(foot.side, state.phase);
      const sole = solePoint(human, foot.side, _sole);
      foot.error = stance ? groundDistance(sole) : 0;
      const ghostSole = solePoint(ghost, foot.side, _ghostSole);
      foot.ghostError = stance ? groundDistance(ghostSole) : 0;
      if (stance && !foot.planted) foot.start.copy(sole), foot.ghostStart.copy(ghostSole);
      const own = Math.hypot(ghostSole.x - foot.ghostStart.x, ghostSole.z - foot.ghostStart.z);
      foot.slide = stance ? Math.max(0, Math.hypot(sole.x - foot.start.x, sole.z - foot.start.z) - own) : 0;
      foot.planted = stance;
      worst = Math.max(worst, foot.error);
      worstGhost = Math.max(worstGhost, foot.ghostError);
      slide = Math.max(slide, foot.slide);
    }
    stats.soleError = worst;
    stats.ghostSoleError = worstGhost;
    stats.slide = slide;
  }

  function step(dt) {
    const walk = human.walk;
    const v = walk.speed * params.speed;
    state.s += v * dt;
    state.phase += (v / walk.stride) * dt;
    state.time += dt;
    loopAt(state.s, at);
    state.rootY = heightPd.update(dt, heightAt(at.x, at.z));
    place(human);
    place(ghost);
    rig.update(dt);
    human.root.updateMatrixWorld(true);
    measure();
    stats.frames++;
  }

  const mm = (x) => `${(1000 * x).toFixed(1)} mm`;
  return {
    update(dt) {
      step(dt);
      if (params.follow) {
        follow.set(human.root.position.x, human.root.position.y + 0.8, human.root.position.z).sub(controls.target).multiplyScalar(Math.min(1, dt * 2));
        controls.target.add(follow);
        camera.position.add(follow);
      }
      line.innerHTML = `stance sole to ground: ${mm(stats.soleError)} (ghost ${mm(stats.ghostSoleError)})<br>`
        + `planted foot slide past the walk's own: ${mm(stats.slide)} · pelvis ${ground.enabled ? 'grounded' : 'as animated'}`;
    },
    state() {
      return {
        constraints: rig.constraints.map((c) => c.kind),
        soleError: stats.soleError,
        ghostSoleError: stats.ghostSoleError,
        slide: stats.slide,
        feet: feet.map((f) => ({ side: f.side, planted: f.planted, error: f.error, slide: f.slide })),
        root: human.root.position.toArray(),
        loop: loopLength(),
        distance: state.s,
        reached: ground.reached,
        frames: stats.frames,
      };
    },
    reset() {
      Object.assign(state, { s: 0, phase: 0, time: 0 });
      stats.frames = 0;
    },
    dispose() {
      rig.dispose();
      heightPd.dispose();
      for (const mesh of course.meshes) mesh.geometry.disposeBoundsTree();
      for (const walker of [human, ghost]) walker.skeleton.dispose();
    },
  };
}
