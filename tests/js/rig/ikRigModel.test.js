// Model-based test of IKRig, its grounding and the helpers (fast-check):
// random sequences of operations, bad ones included, on a humanoid rig, a
// TwoBoneIK and a LookAtIK, checked against a twin that records every
// setting that was accepted. A failed operation changes nothing (settings,
// constraint count, pose); an accepted one reads back; the pose stays finite.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Object3D, Plane, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { IKRig, LookAtIK, TwoBoneIK } from '../../../web/three/index.js';
import { buildHumanoid } from '../../support/three-humanoid.js';

const LIMBS = {
  leftArm: ['leftUpperArm', 'leftLowerArm', 'leftHand'],
  rightArm: ['rightUpperArm', 'rightLowerArm', 'rightHand'],
};
// Values a setting may be given, good and bad alike (the rig decides).
const VALUES = {
  weight: [0, 0.5, 1, 2, -0.1, Number.NaN, '1'],
  enabled: [true, false, 'yes'],
  settleTime: [0, 0.15, -1, Infinity],
  damping: [1, 0.7, 'critical', 0, 'stiff'],
  blendOutTime: [0, 0.1, -1],
  maxYaw: [0.5, 2, -1],
  maxFootPitch: [0.2, 0.6, -1],
  plantHeight: [0.02, 0.05, -1],
  wieght: [1],
};
const POINTS = [null, [0.3, 1.2, 0.3], new Vector3(-0.2, 1.5, 0.8), 'here', [1, 2], [Number.NaN, 0, 0]];
const GROUNDS = [null, new Plane(new Vector3(0, 1, 0), 0), () => ({ height: 0.05 }), 7];
const PLANTS = [[-1, -1], [0, 1], [1], ['a', 0]];
const DTS = [1 / 60, 0, 0.5, -1, Number.NaN];
const KINDS = [['twoBone', 'leftArm'], ['twoBone', 'rightArm'], ['lookAt'], ['aim', 'head'], ['bodyLookAt'], ['grounding'], ['fourBone']];

const op = fc.oneof(
  fc.record({ type: fc.constant('add'), kind: fc.constantFrom(...KINDS), weight: fc.constantFrom(0.5, 1, 1, 0.75, 2, Number.NaN), extra: fc.constantFrom(null, null, null, 'settleTime', 'wieght') }),
  fc.record({ type: fc.constant('prop'), at: fc.nat(7), key: fc.constantFrom(...Object.keys(VALUES)), v: fc.nat(6) }),
  fc.record({ type: fc.constant('set'), at: fc.nat(7), keys: fc.subarray(Object.keys(VALUES), { minLength: 1, maxLength: 3 }), v: fc.nat(6) }),
  fc.record({ type: fc.constant('target'), at: fc.nat(7), v: fc.nat(POINTS.length - 1), pole: fc.boolean() }),
  fc.record({ type: fc.constant('ground'), at: fc.nat(7), ground: fc.nat(GROUNDS.length - 1), plant: fc.nat(PLANTS.length - 1), which: fc.boolean() }),
  fc.record({ type: fc.constant('update'), dt: fc.constantFrom(...DTS), frames: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ type: fc.constant('read'), role: fc.constantFrom('head', 'leftHand', 'nose', 'mixamorigHips') }),
  fc.record({ type: fc.constant('helper'), which: fc.constantFrom('arm', 'look'), key: fc.constantFrom('weight', 'enabled', 'settleTime', 'damping', 'target', 'maxYaw', 'wieght'), v: fc.nat(6) }),
);

const valueOf = (key, v) => {
  if (key === 'target') return POINTS[v % POINTS.length];
  const list = VALUES[key] ?? VALUES.weight;
  return list[v % list.length];
};

// Everything a failed operation must leave as it was.
function snapshot(world) {
  const { rig, bones, arm, look } = world;
  const settings = rig.constraints.map((c) => {
    const out = { target: c.target, pole: c.pole };
    for (const key of Object.keys(c._settings)) out[key] = c[key];
    if (c.kind === 'grounding') { out.ground = c.ground; out.plant = Array.from(c.plant); }
    return out;
  });
  const helpers = [arm, look].map((h) => ({ weight: h.weight, enabled: h.enabled, settleTime: h.settleTime, damping: h.damping, target: h.target, maxYaw: h.maxYaw }));
  const pose = [...Object.values(bones), ...world.armBones, ...world.lookBones].map((b) => [...b.position.toArray(), ...b.quaternion.toArray()]);
  return { count: rig.constraints.length, settings, helpers, pose };
}

function expectFinite(world) {
  for (const b of [...Object.values(world.bones), ...world.armBones, ...world.lookBones]) {
    for (const x of [...b.position.toArray(), ...b.quaternion.toArray(), ...b.scale.toArray()]) expect(Number.isFinite(x)).toBe(true);
  }
  for (const c of world.rig.constraints) expect(Number.isNaN(c.distance)).toBe(false);
}

function apply(world, o) {
  const { rig } = world;
  const pick = (at) => rig.constraints[at % Math.max(1, rig.constraints.length)];
  switch (o.type) {
    case 'add': {
      const [kind, limb] = o.kind;
      const options = { weight: o.weight };
      if (kind === 'twoBone') Object.assign(options, { bones: LIMBS[limb], target: [0.3, 1.1, 0.3] });
      if (kind === 'aim') Object.assign(options, { bone: limb, target: [0, 1.6, 2] });
      if (kind === 'lookAt' || kind === 'bodyLookAt') options.target = [0.5, 1.6, 2];
      if (kind === 'grounding') options.ground = new Plane(new Vector3(0, 1, 0), 0);
      if (o.extra) options[o.extra] = 0.2;
      const c = rig.add(kind, options);
      world.twin.set(c, { weight: o.weight, ...(o.extra ? { [o.extra]: 0.2 } : {}) });
      return;
    }
    case 'prop': {
      const c = pick(o.at);
      if (!c) return;
      const value = valueOf(o.key, o.v);
      // The model: a property the constraint does not have must be refused.
      world.mustFail = !(o.key in c);
      c[o.key] = value;
      world.twin.get(c)[o.key] = value;
      return;
    }
    case 'set': {
      const c = pick(o.at);
      if (!c) return;
      const changes = Object.fromEntries(o.keys.map((k, i) => [k, valueOf(k, o.v + i)]));
      c.set(changes);
      Object.assign(world.twin.get(c), changes);
      return;
    }
    case 'target': {
      const c = pick(o.at);
      if (!c) return;
      const value = POINTS[o.v];
      if (o.pole) c.set({ pole: value }); else c.set({ target: value });
      return;
    }
    case 'ground': {
      const c = rig.constraints.find((k) => k.kind === 'grounding');
      if (!c) return;
      if (o.which) c.ground = GROUNDS[o.ground]; else c.plant = PLANTS[o.plant];
      return;
    }
    case 'update':
      for (let i = 0; i < o.frames; i++) { rig.update(o.dt); world.arm.update(o.dt); world.look.update(o.dt); }
      return;
    case 'read':
      rig.bone(o.role);
      expect(Number.isFinite(rig.facing.length())).toBe(true);
      return;
    case 'helper': {
      const helper = world[o.which];
      if (o.key === 'maxYaw' && o.which === 'arm') return;
      world.mustFail = !(o.key in helper);
      helper[o.key] = valueOf(o.key, o.v);
      return;
    }
    default:
      throw new Error(o.type);
  }
}

function makeWorld() {
  const { scene, bones } = buildHumanoid();
  const rig = new IKRig(ikpd, scene);
  const other = buildHumanoid({ axes: '-z' }).bones;
  const armBones = [other.leftUpperArm, other.leftLowerArm, other.leftHand];
  const arm = new TwoBoneIK(ikpd, armBones, { target: new Object3D() });
  const lookBones = [other.spine, other.chest, other.neck, other.head];
  const look = new LookAtIK(ikpd, lookBones, { target: [0.5, 1.6, 2] });
  const twin = new Map();
  twin.set(rig.add('lookAt', { target: [0.5, 1.6, 2], settleTime: 0.2 }), { settleTime: 0.2 });
  twin.set(rig.add('twoBone', { bones: LIMBS.rightArm, target: [-0.3, 1.1, 0.3] }), {});
  return { rig, bones, arm, look, armBones, lookBones, twin };
}

describe('IKRig, grounding and helpers against a model', () => {
  it('a failed operation changes nothing, an accepted setting reads back, the pose stays finite', () => {
    fc.assert(fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
      const world = makeWorld();
      try {
        for (const o of ops) {
          const before = snapshot(world);
          let failed = false;
          world.mustFail = false;
          try {
            apply(world, o);
          } catch (error) {
            if (!(error instanceof TypeError || error instanceof RangeError)) throw error;
            failed = true;
          }
          if (failed) expect(snapshot(world)).toEqual(before);
          expect(failed || !world.mustFail, `${JSON.stringify(o)} was accepted`).toBe(true);
          // The twin: every accepted setting reads back as given.
          for (const [c, settings] of world.twin) {
            for (const [key, value] of Object.entries(settings)) if (key in c) expect(Object.is(c[key], value) || c[key] === value, `${c.kind}.${key}`).toBe(true);
          }
          expectFinite(world);
        }
      } finally {
        world.rig.dispose(); world.arm.dispose(); world.look.dispose();
      }
    }), { numRuns: 60, seed: 42 });
  }, 30_000);
});
