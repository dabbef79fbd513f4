// add('springs', { vrm }) for VRMs whose springs use several centers and
// whose chains branch (docs/rig/springs.md, "Several centers, branching
// chains"), side by side with three-vrm's VRMSpringBoneManager over the same
// three.js bones: hair with the head as center, a skirt with the hips (body)
// as center and a tail with none; a VRM 0.x spring whose root bone has three
// children walked down; two VRM 1.0 springs sharing a first joint. Each at
// 60 Hz within 2 mm RMS of three-vrm, at 30 / 240 Hz within 1 mm of its own
// 60 Hz; a 2 m teleport does not whip the centered chains; no bone is a joint
// of two chains; settings written to the constraint reach every part.
import { describe, expect, it } from 'vitest';
import { Quaternion, Vector3 } from 'three';
import { VRMSpringBoneCollider, VRMSpringBoneColliderShapeCapsule, VRMSpringBoneColliderShapeSphere, VRMSpringBoneJoint, VRMSpringBoneManager } from '@pixiv/three-vrm-springbone';
import { ikpd } from '../../support/setup.js';
import { exportSpringVrm, simulateSpringVrm } from '../../support/vrm-glb.js';
import { headCharacter, largest, rms } from '../../support/spring-character.js';
import { IKRig } from '../../../web/three/index.js';

const VRM = { stiffness: 1, dragForce: 0.4, gravityPower: 0.3, hitRadius: 0.01 };
const settings = (extra = {}) => ({ ...VRM, gravityDir: new Vector3(0, -1, 0), ...extra });

// body (the hips) → neck → head: hair on the head, a skirt root on the body
// with three strands below it (its first strand the root's first child), a
// tail on the body, and a ribbon bone on the head with two strands below it.
function character() {
  const { scene, body, neck, head, chain } = headCharacter();
  const hair = chain('hair', head, [0, 0.1, -0.09], [0, -0.6, -0.8], 6, 0.05);
  const tail = chain('tail', body, [0, -0.1, -0.1], [0, -0.5, -0.86], 5, 0.06);
  const [skirt] = chain('skirt', body, [0, -0.12, 0.02], [0, -1, 0], 0, 0);
  const strands = [[0.12, -0.05, 0.08], [-0.12, -0.05, 0.08], [0, -0.05, 0.14]].map((at, i) => chain(`strand${i}`, skirt, at, [at[0], -2, at[2]], 4, 0.06));
  const [ribbon] = chain('ribbon', head, [0.09, 0.05, 0], [1, 0, 0], 0, 0);
  const bows = [[0.03, -0.02, 0.02], [0.03, -0.02, -0.02]].map((at, i) => chain(`bow${i}`, ribbon, at, [0.3, -1, at[2] * 10], 3, 0.04));
  scene.updateMatrixWorld(true);
  return { scene, body, neck, head, hair, tail, skirt, strands, ribbon, bows };
}

// The scripted motion at time t: the head turns and nods, the body sways and
// hops (smoothly: a
// chain without a center feels the hop as the frames sample it) and (teleport) is moved 2 m at 2.5 s.
const _a = new Quaternion(), _b = new Quaternion();
function animate(c, t, teleport = true) {
  const yaw = 0.7 * Math.sin(2 * Math.PI * 0.5 * t), pitch = 0.3 * Math.sin(2 * Math.PI * 0.8 * t + 0.3);
  c.head.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), yaw).multiply(_b.setFromAxisAngle(new Vector3(1, 0, 0), pitch));
  c.neck.quaternion.copy(_a.setFromAxisAngle(new Vector3(0, 0, 1), 0.1 * Math.sin(2 * Math.PI * 0.4 * t)));
  c.body.quaternion.setFromAxisAngle(new Vector3(0, 1, 0), 0.8 * Math.sin(2 * Math.PI * 0.3 * t));
  const jump = t > 1 && t < 1.6 ? 0.1 * Math.sin((Math.PI * (t - 1)) / 0.6) ** 2 : 0;
  c.body.position.set(teleport && t >= 2.5 ? 2 : 0, 1 + jump, 0);
}

// A joint of bone → child (null: VRM 0.x's virtual tail) with `center`, in `groups`.
function joint(m, bone, child, center, groups = [], extra = {}) {
  const j = new VRMSpringBoneJoint(bone, child, settings(extra), groups);
  j.center = center;
  m.addJoint(j);
  return j;
}

// Three chains, three centers: hair (the head itself, which turns and nods
// within each frame; a sphere on the head), tail (none, the world), the
// skirt's first strand from its root (the body; a capsule round the body) as
// VRM 1.0 springs.
function centers(c) {
  const m = new VRMSpringBoneManager();
  const sphere = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeSphere({ offset: new Vector3(0, 0.1, 0), radius: 0.08 }));
  const capsule = new VRMSpringBoneCollider(new VRMSpringBoneColliderShapeCapsule({ offset: new Vector3(0, -0.1, 0), tail: new Vector3(0, -0.4, 0), radius: 0.11 }));
  c.head.add(sphere);
  c.body.add(capsule);
  c.scene.updateMatrixWorld(true);
  const spring = (bones, center, groups) => bones.slice(0, -1).forEach((b, k) => joint(m, b, bones[k + 1], center, groups));
  spring(c.hair, c.head, [{ colliders: [sphere] }]);
  spring(c.tail, null, []);
  spring([c.skirt, ...c.strands[0]], c.body, [{ colliders: [capsule] }]);
  return { m, bones: [...c.hair.slice(1), ...c.tail.slice(1), ...c.strands[0]] };
}

// A VRM 0.x spring (center the body): the loader walks down from the skirt's
// root, each bone a joint whose tail is its first child (none: 7 cm virtual).
function branching0(c) {
  const m = new VRMSpringBoneManager();
  c.skirt.traverse((bone) => joint(m, bone, bone.children[0] ?? null, c.body));
  return { m, bones: c.strands.flat() };
}

// Two VRM 1.0 springs (center the head) sharing their first joint, the ribbon
// bone: [ribbon, bow0…] and [ribbon, bow1…], the second a stiffer one.
function branching1(c) {
  const m = new VRMSpringBoneManager();
  c.bows.forEach((bow, i) => [c.ribbon, ...bow].slice(0, -1).forEach((b, k) => joint(m, b, bow[k], c.head, [], { stiffness: 1 + i })));
  return { m, bones: c.bows.flat() };
}

// The recorded bones' world positions after each frame of `rate` Hz (every `every`-th), moved by three-vrm or ikpd.
function run(make, rate, { ours, every = 1, seconds = 4, teleport = true, relative = false, inspect }) {
  const c = character();
  const { m, bones } = make(c);
  let rig = null;
  animate(c, 0, teleport);
  c.scene.updateMatrixWorld(true);
  if (ours) {
    rig = new IKRig(ikpd, c.scene);
    c.springs = rig.add('springs', { vrm: m });
  } else {
    m.setInitState();
  }
  const kept = [];
  for (let k = ours ? 0 : 1; k <= seconds * rate; k++) {
    animate(c, k / rate, teleport);
    c.scene.updateMatrixWorld(true);
    if (ours) rig.update(k === 0 ? 0 : 1 / rate);
    else m.update(1 / rate);
    c.scene.updateMatrixWorld(true);
    const at = (b) => { const p = b.getWorldPosition(new Vector3()); return relative ? c.body.worldToLocal(p) : p; };
    if (k > 0 && k % every === 0) kept.push(bones.map(at));
  }
  inspect?.(c);
  rig?.dispose();
  return kept;
}

const swing = (a) => Math.max(...a.flatMap((frame) => frame.map((p, j) => p.distanceTo(a[0][j]))));
const mm = (x) => (x * 1e3).toFixed(3);

// 60 Hz against three-vrm, 30 / 240 Hz against ikpd's own 60 Hz.
// (No teleport: a chain without a center is thrown by it, differently at each frame rate.)
function compare(name, make) {
  const opts = { teleport: false, relative: true };
  const ours = run(make, 60, { ours: true, ...opts }), theirs = run(make, 60, { ours: false, ...opts });
  const gap = rms(ours, theirs);
  const ours60 = ours.filter((_, k) => (k + 1) % 10 === 0), theirs60 = theirs.filter((_, k) => (k + 1) % 10 === 0);
  const rates = [30, 240].map((rate) => {
    const o = run(make, rate, { ours: true, every: rate / 6, ...opts }), t = run(make, rate, { ours: false, every: rate / 6, ...opts });
      return { rate, ours: largest(o, ours60), theirs: largest(t, theirs60) };
  });
  console.log(`springs: vrm ${name}: 60 Hz RMS against three-vrm ${mm(gap)} mm (largest ${mm(largest(ours, theirs))} mm, the joints swing up to ${mm(swing(ours))} mm); ` +
    rates.map((r) => `${r.rate} Hz against 60 Hz: ikpd ${mm(r.ours)} mm, three-vrm ${(r.theirs * 1e3).toFixed(1)} mm`).join('; '));
  expect(swing(ours)).toBeGreaterThan(0.02);
  expect(gap).toBeLessThan(2e-3);
  for (const r of rates) expect(r.ours).toBeLessThan(1e-3);
}

// Every bone a chain of the constraint's parts lists, with the part's center.
function partsOf(springs) {
  return springs.parts.map((p) => ({ center: p.bones.center, chains: p.bones.chains.map((ch) => ch.map((b) => b.name)) }));
}

describe("springs: add('springs', { vrm }) with several centers", () => {
  it('moves hair (center the turning head), a skirt strand (center the hips) and a tail (no center) as three-vrm at 60 Hz, the same at 30 and 240 Hz', () => {
    compare('of three centers', centers);
  });

  it('makes one constraint per center, in the joints\' order, each with the colliders its chains meet', () => {
    let parts = null;
    run(centers, 60, { ours: true, seconds: 0.1, inspect: (c) => {
      parts = partsOf(c.springs);
      expect(c.springs.parts.map((p) => p.bones.colliders.map((col) => col.shape))).toEqual([['sphere'], [], ['capsule']]);
      expect(c.springs.rig.constraints.length).toBe(3);
      expect(c.springs.parts[0]).toBe(c.springs);
    } });
    expect(parts.map((p) => p.center?.name ?? null)).toEqual(['head', null, 'body']);
    expect(parts.map((p) => p.chains[0][0])).toEqual(['hair0', 'tail0', 'skirt0']);
  });

  it('does not whip the centered chains on a 2 m teleport (the chain without a center does)', () => {
    const still = run(centers, 60, { ours: true, teleport: false, relative: true }), moved = run(centers, 60, { ours: true, relative: true });
    const hair = 6, tail = 5; // the recorded bones: hair1..6, tail1..5, the strand's 5
    const part = (frames, from, to) => frames.map((f) => f.slice(from, to));
    const hairGap = largest(part(moved, 0, hair), part(still, 0, hair));
    const strandGap = largest(part(moved, hair + tail, hair + tail + 5), part(still, hair + tail, hair + tail + 5));
    const tailGap = largest(part(moved, hair, hair + tail), part(still, hair, hair + tail));
    console.log(`springs: vrm of three centers, a 2 m teleport moves (in the body's frame) the hair ${mm(hairGap)} mm, the skirt ${mm(strandGap)} mm, the tail without a center ${(tailGap * 1e3).toFixed(0)} mm`);
    expect(hairGap).toBeLessThan(1e-4);
    expect(strandGap).toBeLessThan(1e-4);
    expect(tailGap).toBeGreaterThan(0.02);
  });

  it('writes a setting to every part, checks it first and changes nothing on an error', () => {
    run(centers, 60, { ours: true, seconds: 0.05, inspect: (c) => {
      const springs = c.springs;
      springs.weight = 0.25;
      springs.set({ dragForce: 0.2, enabled: false });
      for (const p of springs.parts) expect([p.weight, p.dragForce, p.enabled]).toEqual([0.25, 0.2, false]);
      expect(() => { springs.stiffness = -1; }).toThrow(/stiffness/);
      expect(() => springs.set({ dragForce: 2 })).toThrow(/dragForce/);
      expect(() => springs.set({ dragForse: 0.1 })).toThrow(/did you mean 'dragForce'/);
      for (const p of springs.parts) expect([p.stiffness, p.dragForce]).toEqual([1, 0.2]);
    } });
  });
});

describe("springs: add('springs', { vrm }) with several centers from a file", () => {
  it('takes a VRM 1.0 file whose springs have three centers (neck, none, hips), loaded by VRMLoaderPlugin: within 2 mm RMS of its own update at 60 Hz', async () => {
    const bytes = await exportSpringVrm({ severalCenters: true });
    const check = (vrm) => expect(new Set([...vrm.springBoneManager.joints].map((j) => j.center?.name ?? null)).size).toBe(3);
    const rig = (vrm) => {
      const r = new IKRig(ikpd, vrm.scene);
      expect(r.add('springs', { vrm }).parts.length).toBe(3);
      return r;
    };
    const simulate = (ours) => simulateSpringVrm(bytes, { rig: ours ? rig : null, check });
    const ours = await simulate(true), theirs = await simulate(false);
    const gap = rms(ours, theirs);
    console.log(`springs: a VRM 1.0 file of three centers (3 chains, 16 joints): 60 Hz RMS against three-vrm ${mm(gap)} mm (the tails swing up to ${mm(swing(ours))} mm)`);
    expect(swing(ours)).toBeGreaterThan(0.02);
    expect(gap).toBeLessThan(2e-3);
  });
});

describe("springs: add('springs', { vrm }) with branching chains", () => {
  it('moves a VRM 0.x spring whose root has three children as three-vrm at 60 Hz, the same at 30 and 240 Hz', () => {
    compare('VRM 0.x root of three strands', branching0);
  });

  it('moves two VRM 1.0 springs sharing a first joint as three-vrm at 60 Hz, the same at 30 and 240 Hz', () => {
    compare('VRM 1.0 springs sharing a first joint', branching1);
  });

  it('steps no bone twice: the branches are constraints after the chain they hang from', () => {
    for (const [make, expected] of [
      [branching0, [['skirt0', 'strand00', 'strand01', 'strand02', 'strand03', 'strand04'], ['strand10', 'strand11', 'strand12', 'strand13', 'strand14'], ['strand20', 'strand21', 'strand22', 'strand23', 'strand24']]],
      // three-vrm's rule: the ribbon bone turns by the last spring's joint on it; the first spring's strand hangs from it.
      [branching1, [['ribbon0', 'bow10', 'bow11', 'bow12', 'bow13'], ['bow00', 'bow01', 'bow02', 'bow03']]],
    ]) {
      run(make, 60, { ours: true, seconds: 0.05, inspect: (c) => {
        const parts = partsOf(c.springs);
        expect(parts.length).toBe(2);
        expect(parts.flatMap((p) => p.chains)).toEqual(expected);
        const bones = parts.flatMap((p) => p.chains.flat());
        expect(new Set(bones).size).toBe(bones.length);
      } });
    }
  });

  it('turns the shared bone as three-vrm does (its last spring\'s joint)', () => {
    const turns = (ours) => {
      const out = [];
      const c = character();
      const { m } = branching1(c);
      let rig = null;
      animate(c, 0);
      c.scene.updateMatrixWorld(true);
      if (ours) (rig = new IKRig(ikpd, c.scene)).add('springs', { vrm: m });
      else m.setInitState();
      for (let k = 1; k <= 120; k++) {
        animate(c, k / 60);
        c.scene.updateMatrixWorld(true);
        if (ours) rig.update(1 / 60);
        else m.update(1 / 60);
        out.push(c.ribbon.quaternion.clone());
      }
      rig?.dispose();
      return out;
    };
    const ours = turns(true), theirs = turns(false);
    const angles = ours.map((q, k) => q.angleTo(theirs[k]));
    const most = Math.max(...ours.map((q) => q.angleTo(new Quaternion())));
    console.log(`springs: the shared ribbon bone turns up to ${(most * 180 / Math.PI).toFixed(1)} deg; ikpd against three-vrm at most ${(Math.max(...angles) * 180 / Math.PI).toFixed(3)} deg`);
    expect(most).toBeGreaterThan(0.05);
    expect(Math.max(...angles)).toBeLessThan(0.01);
  });
});
