// The springs constraint's plane and "inside" colliders and its `vrm` import
// (docs/rig/springs.md, "Colliders" and "From a VRM"), side by side with
// three-vrm's VRMSpringBoneManager over the same three.js bones: each new
// shape at 60 Hz within 2 mm RMS of three-vrm; a VRM of three chains, a
// center and colliders of every shape in collider groups imported with
// add('springs', { vrm }) within 2 mm RMS of three-vrm's own update at 60 Hz,
// and at 30 / 240 Hz within 1 mm of its own 60 Hz; the manager's update taken
// over; bad input named with nothing changed.
import { types } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Quaternion, Vector3 } from 'three';
import {
  VRMSpringBoneCollider, VRMSpringBoneColliderShapeCapsule, VRMSpringBoneColliderShapePlane, VRMSpringBoneColliderShapeSphere,
  VRMSpringBoneJoint, VRMSpringBoneManager,
} from '@pixiv/three-vrm-springbone';
import { ikpd } from '../../support/setup.js';
import { headCharacter, largest, rms } from '../../support/spring-character.js';
import { exportSpringVrm, simulateSpringVrm } from '../../support/vrm-glb.js';
import { IKRig } from '../../../web/three/index.js';

const VRM = { stiffness: 1, dragForce: 0.4, gravityPower: 0.3, hitRadius: 0.01 };

// body → neck → head with a 30 cm hair chain hanging back (6 × 5 cm), a
// ribbon on the head's side (4 × 4 cm) and a tail on the body (5 × 6 cm).
function character() {
  const { scene, body, neck, head, chain } = headCharacter();
  const hair = chain('hair', head, [0, 0.1, -0.09], [0, -0.6, -0.8], 6, 0.05);
  const ribbon = chain('ribbon', head, [0.08, 0.05, 0], [0.5, -1, 0], 4, 0.04);
  const tail = chain('tail', body, [0, -0.1, -0.1], [0, -0.5, -0.86], 5, 0.06);
  scene.updateMatrixWorld(true);
  return { scene, body, neck, head, hair, ribbon, tail };
}

// The scripted motion at time t: the head turns and nods, the body sways, jumps and is teleported 2 m.
const _a = new Quaternion(), _b = new Quaternion();
function animate(c, t) {
  const yaw = 0.7 * Math.sin(2 * Math.PI * 0.5 * t), pitch = 0.3 * Math.sin(2 * Math.PI * 0.8 * t + 0.3);
  c.head.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), yaw).multiply(_b.setFromAxisAngle(new Vector3(1, 0, 0), pitch));
  c.neck.quaternion.copy(_a.setFromAxisAngle(new Vector3(0, 0, 1), 0.1 * Math.sin(2 * Math.PI * 0.4 * t)));
  c.body.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), 0.8 * Math.sin(2 * Math.PI * 0.3 * t));
  const jump = t > 1 && t < 1.6 ? 0.3 * Math.sin((Math.PI * (t - 1)) / 0.6) : 0;
  c.body.position.set(t >= 2.5 ? 2 : 0, 1 + jump, 0);
}

// One collider of each kind, in the frames of the character's bones (as the VRM extension writes them).
const SHAPES = {
  sphere: { node: 'head', make: () => new VRMSpringBoneColliderShapeSphere({ offset: new Vector3(0, 0.1, 0), radius: 0.07 }), chains: ['hair'] },
  capsule: { node: 'neck', make: () => new VRMSpringBoneColliderShapeCapsule({ offset: new Vector3(0, -0.15, -0.02), tail: new Vector3(0, 0.05, -0.02), radius: 0.05 }), chains: ['hair'] },
  plane: { node: 'body', make: () => new VRMSpringBoneColliderShapePlane({ offset: new Vector3(0, 0, -0.3), normal: new Vector3(0, 0, 2) }), chains: ['tail'] },
  insideSphere: { node: 'head', make: () => new VRMSpringBoneColliderShapeSphere({ offset: new Vector3(0.06, 0, 0), radius: 0.13, inside: true }), chains: ['ribbon'] },
  insideCapsule: { node: 'body', make: () => new VRMSpringBoneColliderShapeCapsule({ offset: new Vector3(0, -0.1, 0), tail: new Vector3(0, -0.35, -0.25), radius: 0.12, inside: true }), chains: ['tail'] },
};

// A VRMSpringBoneManager over the character's chains (`names`), center the neck,
// each chain in a collider group of the `shapes` it meets (c.colliders: shape name → collider).
function manager(c, names, shapes, { vrm0 = false } = {}) {
  const m = new VRMSpringBoneManager();
  const colliders = Object.fromEntries(shapes.map((s) => {
    const collider = new VRMSpringBoneCollider(SHAPES[s].make());
    c[SHAPES[s].node].add(collider);
    return [s, collider];
  }));
  c.colliders = colliders;
  c.scene.updateMatrixWorld(true);
  for (const name of names) {
    const group = { colliders: shapes.filter((s) => SHAPES[s].chains.includes(name)).map((s) => colliders[s]), name };
    const bones = c[name];
    // VRM 0.x: every bone a joint, the last without a child (three-vrm's 7 cm virtual tail).
    for (let k = 0; k + (vrm0 ? 0 : 1) < bones.length; k++) {
      const joint = new VRMSpringBoneJoint(bones[k], bones[k + 1] ?? null, { ...VRM, gravityDir: new Vector3(0, -1, 0) }, [group]);
      joint.center = c.neck;
      m.addJoint(joint);
    }
  }
  return m;
}

const tips = (c, names) => names.flatMap((n) => c[n].slice(1).map((b) => b.getWorldPosition(new Vector3())));

// How far world point p (a tail of radius hit) is on the wrong side of a collider: inside a sphere or
// capsule, behind a plane, outside an inside sphere or capsule (< 0: free).
const _o = new Vector3(), _t = new Vector3(), _n = new Vector3(), _q = new Quaternion();
function depth(collider, p, hit) {
  const shape = collider.shape;
  _o.copy(shape.offset).applyMatrix4(collider.matrixWorld);
  if (shape.type === 'plane') return hit - _t.subVectors(p, _o).dot(_n.copy(shape.normal).applyQuaternion(collider.getWorldQuaternion(_q)).normalize());
  let d = p.distanceTo(_o);
  if (shape.type === 'capsule') {
    _t.copy(shape.tail).applyMatrix4(collider.matrixWorld).sub(_o);
    const u = Math.min(1, Math.max(0, _n.subVectors(p, _o).dot(_t) / _t.lengthSq()));
    d = p.distanceTo(_n.copy(_o).addScaledVector(_t, u));
  }
  return shape.inside ? d - (shape.radius - hit) : shape.radius + hit - d;
}

// The chains' joint positions after each frame of `rate` Hz, every `every`-th frame, moved by three-vrm's
// update or by ikpd; kept.deepest: the farthest a tail got on the wrong side of a collider its chain meets.
function run(names, shapes, rate, { ours, every = 1, seconds = 4, vrm0 = false }) {
  const c = character();
  const m = manager(c, names, shapes, { vrm0 });
  let rig = null;
  animate(c, 0);
  c.scene.updateMatrixWorld(true);
  if (ours) {
    rig = new IKRig(ikpd, c.scene);
    rig.add('springs', { vrm: m });
  } else {
    m.setInitState();
  }
  const kept = [];
  kept.deepest = -Infinity;
  for (let k = ours ? 0 : 1; k <= seconds * rate; k++) {
    animate(c, k / rate);
    c.scene.updateMatrixWorld(true);
    if (ours) rig.update(k === 0 ? 0 : 1 / rate);
    else m.update(1 / rate);
    c.scene.updateMatrixWorld(true);
    // VRM 0.x: each chain's last bone swings too; its virtual tail (7 cm along its position, in its frame) is kept as well.
    const virtual = vrm0 ? names.map((n) => { const b = c[n][c[n].length - 1]; return b.localToWorld(b.position.clone().normalize().multiplyScalar(0.07)); }) : [];
    if (k > 0 && k % every === 0) kept.push([...tips(c, names), ...virtual]);
    for (const s of shapes) {
      for (const n of names.filter((name) => SHAPES[s].chains.includes(name))) {
        for (const b of c[n].slice(1)) kept.deepest = Math.max(kept.deepest, depth(c.colliders[s], b.getWorldPosition(_t.clone()), VRM.hitRadius));
      }
    }
  }
  rig?.dispose();
  return kept;
}

// How far the tails get from where they would be without the collider (it must act for the comparison to mean something).
const CHAIN_OF = { plane: 'tail', insideSphere: 'ribbon', insideCapsule: 'tail' };

describe('springs: plane and inside colliders beside three-vrm', () => {
  for (const shape of ['plane', 'insideSphere', 'insideCapsule']) {
    it(`${shape}: within 2 mm RMS of three-vrm at 60 Hz`, () => {
      const names = [CHAIN_OF[shape]];
      const ours = run(names, [shape], 60, { ours: true }), theirs = run(names, [shape], 60, { ours: false });
      const free = run(names, [], 60, { ours: true });
      const gap = rms(ours, theirs), acts = largest(ours, free);
      console.log(`springs: ${shape}: 60 Hz RMS against three-vrm ${(gap * 1e3).toFixed(3)} mm (the collider moves the tails up to ${(acts * 1e3).toFixed(0)} mm); ` +
        `deepest on the wrong side: ikpd ${(Math.max(0, ours.deepest) * 1e3).toFixed(3)} mm, three-vrm ${(Math.max(0, theirs.deepest) * 1e3).toFixed(2)} mm`);
      expect(acts).toBeGreaterThan(0.01);
      expect(gap).toBeLessThan(2e-3);
      expect(ours.deepest).toBeLessThan(1e-4);
    });
  }
});

describe("springs: add('springs', { vrm })", () => {
  const ALL = ['hair', 'ribbon', 'tail'];
  const SHAPE_NAMES = Object.keys(SHAPES);

  it('moves a VRM of three chains, a center and every collider shape within 2 mm RMS of three-vrm at 60 Hz', () => {
    const ours = run(ALL, SHAPE_NAMES, 60, { ours: true }), theirs = run(ALL, SHAPE_NAMES, 60, { ours: false });
    const gap = rms(ours, theirs);
    console.log(`springs: vrm import, 60 Hz RMS against three-vrm ${(gap * 1e3).toFixed(3)} mm (largest ${(largest(ours, theirs) * 1e3).toFixed(2)} mm); ` +
      `deepest on the wrong side of a collider: ikpd ${(Math.max(0, ours.deepest) * 1e3).toFixed(3)} mm, three-vrm ${(Math.max(0, theirs.deepest) * 1e3).toFixed(2)} mm`);
    expect(gap).toBeLessThan(2e-3);
    expect(ours.deepest).toBeLessThan(1e-4);
  });

  it('moves it the same at 30 and 240 Hz as at its own 60 Hz (within 1 mm), where three-vrm moves centimetres', () => {
    const ours60 = run(ALL, SHAPE_NAMES, 60, { ours: true, every: 10 }), theirs60 = run(ALL, SHAPE_NAMES, 60, { ours: false, every: 10 });
    for (const rate of [30, 240]) {
      const ours = run(ALL, SHAPE_NAMES, rate, { ours: true, every: rate / 6 }), theirs = run(ALL, SHAPE_NAMES, rate, { ours: false, every: rate / 6 });
      const gap = largest(ours, ours60);
      console.log(`springs: vrm import, ${rate} Hz against 60 Hz: ikpd ${(gap * 1e3).toFixed(3)} mm, three-vrm ${(largest(theirs, theirs60) * 1e3).toFixed(1)} mm`);
      expect(gap).toBeLessThan(1e-3);
    }
  });

  it('takes VRM 0.x chains (the last joint childless: a 7 cm virtual tail) within 2 mm RMS of three-vrm at 60 Hz', () => {
    const ours = run(ALL, SHAPE_NAMES, 60, { ours: true, vrm0: true }), theirs = run(ALL, SHAPE_NAMES, 60, { ours: false, vrm0: true });
    const gap = rms(ours, theirs);
    console.log(`springs: vrm import, VRM 0.x chains, 60 Hz RMS against three-vrm ${(gap * 1e3).toFixed(3)} mm`);
    expect(gap).toBeLessThan(2e-3);
  });

  it('reads the chains, center, settings, colliders and groups, and takes the manager update over', () => {
    const c = character();
    const m = manager(c, ALL, SHAPE_NAMES);
    const rig = new IKRig(ikpd, c.scene);
    const springs = rig.add('springs', { vrm: { springBoneManager: m }, weight: 0.5 });
    expect(springs.bones.chains.map((ch) => ch.map((b) => b.name))).toEqual(ALL.map((n) => c[n].map((b) => b.name)));
    expect(springs.bones.center).toBe(c.neck);
    expect(springs.bones.colliders.map((col) => col.shape).sort()).toEqual([...SHAPE_NAMES].sort());
    // three-vrm's update no longer moves the bones, and the bones follow their rotations again.
    animate(c, 0.5);
    c.scene.updateMatrixWorld(true);
    const before = c.hair.map((b) => b.quaternion.clone());
    m.update(1 / 60);
    c.hair.forEach((b, k) => expect(b.quaternion.equals(before[k])).toBe(true));
    expect(c.hair.every((b) => b.matrixAutoUpdate)).toBe(true);
    rig.update(1 / 60);
    expect(c.hair[2].quaternion.equals(before[2])).toBe(false);
    rig.dispose();
  });

  it("gives three-vrm's center matrix its plain elements back, and three-vrm's own update still works when given back", () => {
    // three-vrm's Proxy on the center's matrixWorld.elements makes three.js's shared matrix code box every float.
    const given = character(), untouched = character();
    const mGiven = manager(given, ALL, SHAPE_NAMES), mUntouched = manager(untouched, ALL, SHAPE_NAMES);
    expect(types.isProxy(given.neck.matrixWorld.elements)).toBe(true);
    const rig = new IKRig(ikpd, given.scene);
    rig.add('springs', { vrm: mGiven });
    expect(types.isProxy(given.neck.matrixWorld.elements)).toBe(false);
    rig.dispose();
    delete mGiven.update;
    for (const m of [mGiven, mUntouched]) m.setInitState();
    // Given back, three-vrm's update (its center's inverse read afresh each time) moves the bones as an untouched manager's.
    let gap = 0;
    for (let f = 1; f <= 120; f++) {
      for (const [c, m] of [[given, mGiven], [untouched, mUntouched]]) {
        animate(c, f / 60);
        c.scene.updateMatrixWorld(true);
        m.update(1 / 60);
      }
      given.hair.forEach((b, k) => { gap = Math.max(gap, b.getWorldPosition(new Vector3()).distanceTo(untouched.hair[k].getWorldPosition(new Vector3()))); });
    }
    expect(gap).toBeLessThan(1e-6);
  });

  it('names bad input and changes nothing', () => {
    const c = character();
    const m = manager(c, ALL, SHAPE_NAMES);
    const rig = new IKRig(ikpd, c.scene);
    const update = m.update;
    expect(() => rig.add('springs', { vrm: {} })).toThrow(/^vrm: expected a three-vrm VRM/);
    expect(() => rig.add('springs', { vrm: m, chains: [c.hair] })).toThrow(/^chains: not with vrm/);
    expect(() => rig.add('springs', { vmr: m })).toThrow(/did you mean 'vrm'/);
    expect(() => rig.add('springs', { vrm: new VRMSpringBoneManager() })).toThrow(/^vrm: its springBoneManager has no joints/);
    expect(() => rig.add('springs', { vrm: m, dragForce: 3 })).toThrow(/dragForce/);
    expect(rig.constraints.length).toBe(0);
    expect(m.update).toBe(update);
    rig.dispose();
  });

  it('names bad colliders and chainColliders in the plain options', () => {
    const c = character();
    const rig = new IKRig(ikpd, c.scene);
    const add = (extra) => () => rig.add('springs', { chains: [c.hair], ...extra });
    expect(add({ colliders: [{ joint: c.head, shape: 'plane', normal: [0, 0, 0] }] })).toThrow(/colliders\[0\]\.normal: must be finite and non-zero/);
    expect(add({ colliders: [{ joint: c.head, shape: 'insidesphere' }] })).toThrow(/colliders\[0\]\.shape/);
    expect(add({ colliders: [{ joint: c.head, radius: -1 }] })).toThrow(/colliders\[0\]\.radius/);
    expect(add({ colliders: [{ joint: c.head, normals: [0, 1, 0] }] })).toThrow(/colliders\[0\]\.normals: unknown option.*did you mean 'normal'/);
    expect(add({ colliders: [{ joint: c.head, radius: 0.1 }], chainColliders: [[1]] })).toThrow(/chainColliders\[0\]\[0\]: must be a collider index in \[0, 1\)/);
    expect(add({ chainColliders: [[], []] })).toThrow(/chainColliders: needs one entry per chain \(1\), got 2/);
    expect(rig.constraints.length).toBe(0);
    rig.dispose();
  });

  it('takes a VRM 1.0 file loaded by GLTFLoader and VRMLoaderPlugin: within 2 mm RMS of its own update at 60 Hz', async () => {
    const bytes = await exportSpringVrm();
    const check = (vrm) => expect(vrm.springBoneManager.colliders.map((c) => `${c.shape.type}${c.shape.inside ? ' inside' : ''}`).sort())
      .toEqual(['capsule', 'capsule inside', 'plane', 'sphere', 'sphere inside']);
    const rig = (vrm) => { const r = new IKRig(ikpd, vrm.scene); r.add('springs', { vrm }); return r; };
    const simulate = (ours) => simulateSpringVrm(bytes, { rig: ours ? rig : null, check });
    const ours = await simulate(true), theirs = await simulate(false);
    const rest = ours[0].map((p) => p.clone());
    const swing = Math.max(...ours.flatMap((f) => f.map((p, j) => p.distanceTo(rest[j]))));
    const gap = rms(ours, theirs);
    console.log(`springs: a VRM 1.0 file (3 chains, 16 joints, 5 colliders in 2 groups): 60 Hz RMS against three-vrm ${(gap * 1e3).toFixed(3)} mm (the tails swing up to ${(swing * 1e3).toFixed(0)} mm)`);
    expect(swing).toBeGreaterThan(0.02);
    expect(gap).toBeLessThan(2e-3);
  });
});
