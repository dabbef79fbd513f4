// A walk through IKRig's grounding in three.js: the demo's humanoid walks the
// demo's course (a 20° ramp, a platform, stairs, a 15 cm step, a sideways
// slope, bumps: demo/lib/course.js) with its procedural walk
// (demo/lib/walk.js), the course's meshes raycast with three-mesh-bvh, at 30,
// 60 and 240 Hz. From a quarter of each stance on (a foot that landed on a
// step edge blends its landing residual out, docs/rig/grounding.md), every stance
// sole is within 1 mm of the course and a planted foot slides at most 1 mm
// more than the walk's own foot;
// no leg goes past full reach.
import { describe, expect, it } from 'vitest';
import { Quaternion, Raycaster, Vector3 } from 'three';
import { acceleratedRaycast, computeBoundsTree } from 'three-mesh-bvh';
import { ikpd } from '../../support/setup.js';
import { IKRig } from '../../../web/three/index.js';
import { createHumanoid } from '../../../demo/lib/humanoid.js';
import { createWalk } from '../../../demo/lib/walk.js';
import { createCourse, heightAt, loopAt, loopLength } from '../../../demo/lib/course.js';

const SOLE = 0.02; // the toes' height above their sole at rest (the legs' effectors)
const SIDES = ['left', 'right'];

function lap(rate) {
  const course = createCourse();
  for (const mesh of course.meshes) {
    mesh.geometry.computeBoundsTree = computeBoundsTree;
    mesh.geometry.computeBoundsTree();
    mesh.raycast = acceleratedRaycast;
    mesh.updateMatrixWorld(true);
  }
  const human = createHumanoid();
  const animated = createHumanoid(); // the same walk without grounding: the foot's animated rotation
  const walks = [human, animated].map((h) => createWalk(h.bones));
  const rig = new IKRig(ikpd, human.mesh);
  const feet = rig.add('grounding', { ground: course.meshes });
  const raycaster = new Raycaster();
  const down = new Vector3(0, -1, 0), up = new Vector3(0, 1, 0), at = { x: 0, z: 0, heading: 0 };
  const q = new Quaternion(), r = new Quaternion(), n = new Vector3(), p = new Vector3();
  // Distance of a toe's sole point from the course along its normal (docs/rig/grounding.md); on a
  // stair's nose (the sole exactly over an edge) the nearer of the two treads, 5 mm either side.
  const OFFSETS = [[0, 0], [0.005, 0], [-0.005, 0], [0, 0.005], [0, -0.005]];
  const soleError = (side) => {
    const toe = human.bones[`${side}Toes`];
    toe.getWorldQuaternion(q).multiply(animated.bones[`${side}Toes`].getWorldQuaternion(r).invert());
    const sole = toe.getWorldPosition(new Vector3()).addScaledVector(n.copy(up).applyQuaternion(q), -SOLE);
    let error = Infinity;
    for (const [dx, dz] of OFFSETS) {
      raycaster.set(p.set(sole.x + dx, sole.y + 1, sole.z + dz), down);
      const hit = raycaster.intersectObjects(course.meshes, false)[0];
      n.copy(hit.face.normal).transformDirection(hit.object.matrixWorld);
      error = Math.min(error, Math.abs(p.subVectors(sole, hit.point).dot(n)));
    }
    return { sole, error };
  };
  const walk = walks[0];
  const heights = { y: 0, v: 0 };
  const stats = { error: 0, slide: 0, overReach: 0, samples: 0 };
  const planted = { left: null, right: null };
  const dt = 1 / rate;
  for (let s = 0, phase = 0; s < loopLength(); s += walk.speed * dt, phase += dt / walk.period) {
    loopAt(s, at);
    // The root follows the course's height, critically damped (0.25 s), as the demo's does.
    const w = (2 * Math.PI) / 0.25, e = heights.y - heightAt(at.x, at.z), decay = Math.exp(-w * dt);
    heights.y = heightAt(at.x, at.z) + (e + (heights.v + w * e) * dt) * decay;
    heights.v = (heights.v - w * (heights.v + w * e) * dt) * decay;
    for (const [h, wk] of [[human, walk], [animated, walks[1]]]) {
      h.root.position.set(at.x, heights.y, at.z);
      h.root.rotation.set(0, at.heading, 0);
      wk.pose(phase);
      h.root.updateMatrixWorld(true);
    }
    rig.update(dt);
    human.root.updateMatrixWorld(true);
    for (const side of SIDES) {
      const hip = human.bones[`${side}UpperLeg`].getWorldPosition(new Vector3());
      const knee = human.bones[`${side}LowerLeg`].getWorldPosition(new Vector3());
      const ankle = human.bones[`${side}Foot`].getWorldPosition(new Vector3());
      stats.overReach = Math.max(stats.overReach, hip.distanceTo(ankle) - hip.distanceTo(knee) - knee.distanceTo(ankle));
      const progress = walk.stanceProgress(side, phase);
      // From a quarter of the stance to its last tenth: at toe-off the walk straightens the leg
      // and, on the authored floor, a lock it cannot reach yields (docs/rig/grounding.md).
      if (progress < 0.25 || progress > 0.9) { if (progress < 0.25) planted[side] = null; continue; }
      const { sole, error } = soleError(side);
      const own = animated.bones[`${side}Toes`].getWorldPosition(p);
      planted[side] ??= { sole: sole.clone(), own: own.clone() };
      stats.error = Math.max(stats.error, error);
      // Past the walk's own foot motion (a lock its leg cannot reach follows it: docs/rig/grounding.md).
      const slid = Math.hypot(sole.x - planted[side].sole.x, sole.z - planted[side].sole.z);
      stats.slide = Math.max(stats.slide, slid - Math.hypot(own.x - planted[side].own.x, own.z - planted[side].own.z));
      stats.samples++;
    }
  }
  rig.dispose();
  return { ...stats, reached: feet.reached };
}

describe('a lap of the demo course through IKRig grounding', () => {
  for (const rate of [30, 60, 240]) {
    it(`${rate} Hz: stance soles within 1 mm of the course, planted feet slide at most 1 mm, no leg past full reach`, () => {
      const result = lap(rate);
      expect(result.samples).toBeGreaterThan(rate * 20);
      expect(result.error).toBeLessThanOrEqual(1e-3);
      expect(result.slide).toBeLessThanOrEqual(1e-3);
      expect(result.overReach).toBeLessThanOrEqual(1e-5);
    }, 120_000);
  }
});
