// IKRig's grounding constraint in three.js (docs/rig/grounding.md): a standing
// humanoid, built as exporters build them (tests/support/three-humanoid.js) and
// through a GLTFExporter → GLTFLoader round trip, on raised and lowered
// floors, a 20° slope and 15 cm steps given as meshes, a function and a
// Plane, at 30, 60 and 240 Hz: stance soles within 1 mm of the ground, no leg
// past full reach, the pelvis within maxPelvisDrop, the pelvis height the
// same at 30 and 240 Hz, toggles without a pop; humanoid defaults; bad input
// named; a bad ground function is no ground.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BoxGeometry, Group, Mesh, MeshBasicMaterial, Plane, PlaneGeometry, Vector3 } from 'three';
import { acceleratedRaycast, computeBoundsTree } from 'three-mesh-bvh';
import { ikpd } from '../../support/setup.js';
import { IKRig } from '../../../web/three/index.js';
import { buildHumanoid, worldOf, worldRotationOf } from '../../support/three-humanoid.js';
import { exportHumanoidGlb, loadGlb } from '../../support/gltf-round-trip.js';

afterEach(() => vi.restoreAllMocks());

const SOLE = 0.08; // the test humanoid's ankle height at rest (its sole offset)
const LEGS3 = [['leftUpperLeg', 'leftLowerLeg', 'leftFoot'], ['rightUpperLeg', 'rightLowerLeg', 'rightFoot']];
const SIDES = ['left', 'right'];
const RATES = [30, 60, 240];

const mesh = (geometry) => { const m = new Mesh(geometry, new MeshBasicMaterial()); m.updateMatrixWorld(true); return m; };
const floorAt = (y) => { const m = mesh(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2)); m.position.y = y; m.updateMatrixWorld(true); return m; };

// Grounds: each with its exact height under (x, z).
const GROUNDS = {
  'floor 10 cm up': { height: () => 0.1, meshes: () => [floorAt(0.1)] },
  'floor 5 cm down': { height: () => -0.05, meshes: () => [floorAt(-0.05)] },
  '20° slope': {
    height: (x) => x * Math.tan((20 * Math.PI) / 180),
    normal: new Vector3(-Math.sin((20 * Math.PI) / 180), Math.cos((20 * Math.PI) / 180), 0),
    meshes: () => [mesh(new PlaneGeometry(10, 10).rotateX(-Math.PI / 2).rotateZ((20 * Math.PI) / 180))],
  },
  '15 cm step up (left foot)': {
    height: (x) => (x > 0.02 ? 0.15 : 0),
    meshes: () => [mesh(new BoxGeometry(1, 0.15, 1).translate(0.52, 0.075, 0)), floorAt(0)],
  },
  '15 cm step down (right foot)': {
    height: (x) => (x < -0.02 ? -0.15 : 0),
    meshes: () => [mesh(new BoxGeometry(1, 0.15, 1).translate(0.52, -0.075, 0)), floorAt(-0.15)],
  },
};

// The ground option in each form the three.js constraint takes.
const FORMS = {
  meshes: (g) => g.meshes(),
  'meshes (three-mesh-bvh)': (g) => g.meshes().map((m) => {
    m.geometry.computeBoundsTree = computeBoundsTree;
    m.geometry.computeBoundsTree();
    m.raycast = acceleratedRaycast;
    return m;
  }),
  function: (g) => (x) => ({ height: g.height(x), normal: g.normal }),
};

/**
 * Sole-to-ground distance (metres) of each foot, as docs/rig/grounding.md defines
 * it: the sole point is the ankle less its sole offset along the foot's up
 * (up turned as the foot turned from its animated rotation, `animated`: the
 * same humanoid untouched), measured along the ground's normal.
 */
function soleErrors(bones, ground, animated) {
  return SIDES.map((side) => {
    const foot = `${side}Foot`;
    const turn = worldRotationOf(bones[foot]).multiply(worldRotationOf(animated[foot]).invert());
    const sole = worldOf(bones[foot]).addScaledVector(new Vector3(0, 1, 0).applyQuaternion(turn), -SOLE);
    const n = ground.normal ?? new Vector3(0, 1, 0);
    return Math.abs((sole.y - ground.height(sole.x, sole.z)) * n.y);
  });
}

function legReach(bones, side) {
  const hip = worldOf(bones[`${side}UpperLeg`]), knee = worldOf(bones[`${side}LowerLeg`]), ankle = worldOf(bones[`${side}Foot`]);
  return { reach: hip.distanceTo(knee) + knee.distanceTo(ankle), span: hip.distanceTo(ankle) };
}

/** Stands the humanoid on `ground` for `seconds` at `rate` Hz; returns per-frame measures. */
function stand({ rate, ground, form = 'meshes', axes = '+y', mixamoArmature = false, seconds = 2, options = {} }) {
  const { scene, bones } = buildHumanoid({ axes, mixamoArmature, seed: 7 });
  const animated = buildHumanoid({ axes, mixamoArmature, seed: 7 }).bones;
  const rig = new IKRig(ikpd, scene);
  const constraint = rig.add('grounding', { legs: LEGS3, ground: FORMS[form](ground), ...options });
  const hipsRest = worldOf(bones.hips).y;
  const frames = [];
  for (let i = 1; i <= Math.round(seconds * rate); i++) {
    rig.update(1 / rate);
    frames.push({ t: i / rate, errors: soleErrors(bones, ground, animated), pelvis: worldOf(bones.hips).y - hipsRest, legs: SIDES.map((s) => legReach(bones, s)) });
  }
  return { rig, constraint, bones, animated, frames, last: frames.at(-1) };
}

describe('stance soles on the ground through IKRig', () => {
  for (const [name, ground] of Object.entries(GROUNDS)) {
    for (const form of Object.keys(FORMS)) {
      it(`${name}, ground as ${form}: within 1 mm at 30, 60 and 240 Hz; no leg past full reach; pelvis within maxPelvisDrop`, () => {
        for (const rate of RATES) {
          const { rig, constraint, frames, last } = stand({ rate, ground, form });
          for (const e of last.errors) expect(e, `${rate} Hz`).toBeLessThanOrEqual(1e-3);
          expect(constraint.reached).toBe(true);
          expect(constraint.distance).toBeLessThanOrEqual(1e-3);
          // The default drop: 0.35 × the shortest leg's rest length (docs/rig/grounding.md).
          const drop = constraint.maxPelvisDrop ?? 0.35 * frames[0].legs[0].reach;
          for (const f of frames) {
            for (const leg of f.legs) expect(leg.span).toBeLessThanOrEqual(leg.reach + 1e-5);
            expect(f.pelvis).toBeGreaterThanOrEqual(-drop - 1e-5);
          }
          rig.dispose();
        }
      });
    }
  }

  it('the pelvis height is the same at 30 Hz and at 240 Hz at common times (within 1 mm)', () => {
    const slow = stand({ rate: 30, ground: GROUNDS['15 cm step down (right foot)'] });
    const fast = stand({ rate: 240, ground: GROUNDS['15 cm step down (right foot)'] });
    slow.frames.forEach((f, i) => expect(Math.abs(f.pelvis - fast.frames[8 * i + 7].pelvis), `t = ${f.t}`).toBeLessThanOrEqual(1e-3));
    expect(slow.last.pelvis).toBeLessThan(-0.01); // it did drop
    slow.rig.dispose();
    fast.rig.dispose();
  });

  it('a THREE.Plane ground, and no ground given: the authored ground of a raised character', () => {
    const plane = new Plane().setFromNormalAndCoplanarPoint(new Vector3(0, 1, 0), new Vector3(0, 0.07, 0));
    const { scene, bones } = buildHumanoid({ seed: 2 });
    const rig = new IKRig(ikpd, scene);
    rig.add('grounding', { legs: LEGS3, ground: plane });
    for (let i = 0; i < 120; i++) rig.update(1 / 60);
    for (const e of soleErrors(bones, { height: () => 0.07 }, buildHumanoid({ seed: 2 }).bones)) expect(e).toBeLessThanOrEqual(1e-3);
    rig.dispose();
    // No ground: the feet stay where the animation has them, on the character's own floor.
    const other = buildHumanoid({ seed: 2 });
    other.scene.position.set(1, 2, 3);
    other.scene.updateMatrixWorld(true);
    const before = SIDES.map((s) => worldOf(other.bones[`${s}Foot`]));
    const still = new IKRig(ikpd, other.scene);
    still.add('grounding', { legs: LEGS3 });
    for (let i = 0; i < 60; i++) still.update(1 / 60);
    SIDES.forEach((s, i) => expect(worldOf(other.bones[`${s}Foot`]).distanceTo(before[i])).toBeLessThanOrEqual(1e-5));
    still.dispose();
  });
});

describe('rigs as exporters build them', () => {
  for (const axes of ['identity', '-z', '-y', 'mixed', 'random']) {
    for (const mixamoArmature of [false, true]) {
      it(`${axes} bones${mixamoArmature ? ', Mixamo armature (cm, turned)' : ''}: soles on a 15 cm step and a 20° slope within 1 mm`, () => {
        for (const name of ['15 cm step up (left foot)', '20° slope']) {
          const { rig, last } = stand({ rate: 60, ground: GROUNDS[name], axes, mixamoArmature });
          for (const e of last.errors) expect(e, name).toBeLessThanOrEqual(1e-3);
          rig.dispose();
        }
      });
    }
  }

  it('a GLTFExporter → GLTFLoader round trip: humanoid defaults (legs with toes, hips) and soles on a step', async () => {
    const gltf = await loadGlb(await exportHumanoidGlb({ axes: 'mixed', mixamoArmature: true, seed: 4 }));
    const skinned = gltf.scene.getObjectByProperty('isSkinnedMesh', true);
    const rig = new IKRig(ikpd, skinned);
    const constraint = rig.add('grounding', { ground: GROUNDS['15 cm step up (left foot)'].meshes() });
    const role = (bone) => [...rig.humanoid].find(([, b]) => b === bone)?.[0];
    expect(constraint.bones.legs.map((leg) => leg.map(role))).toEqual([
      ['leftUpperLeg', 'leftLowerLeg', 'leftFoot', 'leftToes'], ['rightUpperLeg', 'rightLowerLeg', 'rightFoot', 'rightToes']]);
    expect(role(constraint.bones.pelvis)).toBe('hips');
    expect(constraint.bones.chest).toBe(null);
    for (let i = 0; i < 120; i++) rig.update(1 / 60);
    // Pseudo three-bone legs: the toe (0.02 above its sole at rest) lands on the ground.
    const toe = (side) => worldOf(rig.bone(`${side}Toes`));
    expect(Math.abs(toe('left').y - 0.02 - 0.15)).toBeLessThanOrEqual(1e-3);
    expect(Math.abs(toe('right').y - 0.02)).toBeLessThanOrEqual(1e-3);
    rig.dispose();
  });
});

describe('toggles blend, never pop', () => {
  it('turning grounding off and on moves the ankle by at most a PD step per frame, and off ends on the animated pose', () => {
    const ground = GROUNDS['15 cm step up (left foot)'];
    const { rig, constraint, bones } = stand({ rate: 60, ground });
    const animated = buildHumanoid({ seed: 7 }).bones;
    let largest = 0;
    let previous = worldOf(bones.leftFoot);
    const frame = () => { rig.update(1 / 60); const now = worldOf(bones.leftFoot); largest = Math.max(largest, now.distanceTo(previous)); previous = now; };
    constraint.enabled = false;
    for (let i = 0; i < 90; i++) frame();
    expect(worldOf(bones.leftFoot).distanceTo(worldOf(animated.leftFoot))).toBeLessThanOrEqual(1e-5);
    constraint.enabled = true;
    for (let i = 0; i < 90; i++) frame();
    // A critically damped PD (ω = 2π / settleTime) moves a 15 cm step at most 0.15·ω/e per second;
    // a pop would move the foot 15 cm in one frame.
    const omega = (2 * Math.PI) / constraint.settleTime;
    expect(largest).toBeLessThanOrEqual((1.05 * 0.15 * omega) / Math.E / 60);
    rig.dispose();
  });
});

describe('options and bad input', () => {
  it('settings are properties pushed to WASM only when they change', () => {
    const { scene } = buildHumanoid();
    const rig = new IKRig(ikpd, scene);
    const c = rig.add('grounding', { legs: LEGS3, maxFootPitch: 0.3 });
    const set = vi.spyOn(c._core, 'set');
    c.maxFootPitch = 0.3;
    expect(set).not.toHaveBeenCalled();
    c.maxFootPitch = 0.4;
    expect(set).toHaveBeenCalledTimes(1);
    expect(c.maxFootPitch).toBe(0.4);
    expect(() => { c.maxFootPitch = -1; }).toThrow(/maxFootPitch/);
    expect(c.maxFootPitch).toBe(0.4);
    expect(() => { c.ground = 'floor'; }).toThrow(TypeError);
    // set() takes the three.js-side options too, all checked before any changes.
    const floor = floorAt(0.05);
    c.set({ ground: [floor], plant: [1, 0], maxFootRoll: 0.2 });
    expect(c.ground).toEqual([floor]);
    expect(Array.from(c.plant)).toEqual([1, 0]);
    expect(c.maxFootRoll).toBe(0.2);
    expect(() => c.set({ ground: 7, maxFootRoll: 0.1 })).toThrow(/ground: expected/);
    expect(() => c.set({ plant: [1], maxFootRoll: 0.1 })).toThrow(/plant: expected 2 numbers/);
    expect(c.maxFootRoll).toBe(0.2);
    expect(c.ground).toEqual([floor]);
    rig.dispose();
  });

  it('names the option: legs, pelvis, ground, plant, unknown names', () => {
    const { scene, bones } = buildHumanoid();
    const rig = new IKRig(ikpd, scene);
    expect(() => rig.add('grounding', { legs: [LEGS3[0]] })).toThrow(/legs: expected 2 or 4 legs/);
    expect(() => rig.add('grounding', { legs: [LEGS3[0], ['rightUpperLeg', 'leftLowerLeg', 'rightFoot']] })).toThrow(/legs\[1\]/);
    expect(() => rig.add('grounding', { legs: [LEGS3[0], ['rightUpperLeg', 'rightLowerLeg']] })).toThrow(/legs\[1\]: expected \[hip, knee, ankle, toe\?\]/);
    expect(() => rig.add('grounding', { legs: LEGS3, pelvis: 'leftHand' })).toThrow(/legs\[0\]\[0\]: the hip must hang below the pelvis/);
    expect(() => rig.add('grounding', { legs: LEGS3, ground: 3 })).toThrow(/ground: expected an Object3D/);
    expect(() => rig.add('grounding', { legs: LEGS3, plant: [1] })).toThrow(/plant: expected 2 numbers/);
    expect(() => rig.add('grounding', { legs: LEGS3, maxPelvisDorp: 0.1 })).toThrow(/maxPelvisDrop/);
    expect(rig.constraints).toEqual([]);
    // Not a humanoid: legs are needed.
    const plain = new IKRig(ikpd, scene, { humanoid: 'none' });
    expect(() => plain.add('grounding', {})).toThrow(/legs: a 'grounding' constraint needs legs/);
    const c = plain.add('grounding', { legs: LEGS3.map((leg) => leg.map((r) => bones[r])), pelvis: bones.hips });
    expect(c.bones.pelvis).toBe(bones.hips);
    plain.dispose();
    rig.dispose();
  });

  it('a ground function that throws, returns NaN or nothing: no ground, the feet keep the animated pose, one warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const bad of [() => { throw new Error('no terrain'); }, () => ({ height: NaN }), () => undefined]) {
      const { scene, bones } = buildHumanoid({ seed: 1 });
      const rig = new IKRig(ikpd, scene);
      const before = SIDES.map((s) => worldOf(bones[`${s}Foot`]));
      rig.add('grounding', { legs: LEGS3, ground: bad });
      for (let i = 0; i < 30; i++) rig.update(1 / 60);
      SIDES.forEach((s, i) => expect(worldOf(bones[`${s}Foot`]).distanceTo(before[i])).toBeLessThanOrEqual(1e-5));
      rig.dispose();
    }
    expect(warn.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('a leg flagged free (plant 0) and one planted (plant 1) through constraint.plant', () => {
    const { scene } = buildHumanoid();
    const rig = new IKRig(ikpd, scene);
    const c = rig.add('grounding', { legs: LEGS3, plant: [0, 1] });
    expect(Array.from(c.plant)).toEqual([0, 1]);
    rig.update(1 / 60);
    c.plant.fill(-1);
    rig.update(1 / 60);
    rig.dispose();
  });
});
