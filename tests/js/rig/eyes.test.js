// ikpd.Rig's look-at eyes (docs/rig/look-at.md, "Eyes"; docs/rig/rig.md): the rig
// with eye joints equals ikpd.LookAt / ikpd.BodyLookAt with eyes, the eye
// options are the kinds' own, and bad eyes are named errors that change nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { add, quatMul, quatNormalize, rotate } from '../../support/ik-math.js';

const F = 10; // floats per local

function fk(parents, locals) {
  const world = [];
  for (let j = 0; j < parents.length; j++) {
    const p = parents[j] >= 0 ? world[parents[j]] : { position: [0, 0, 0], rotation: [0, 0, 0, 1] };
    const l = Array.from(locals.slice(F * j, F * j + F));
    world.push({ position: add(p.position, rotate(p.rotation, l.slice(0, 3))), rotation: quatNormalize(quatMul(p.rotation, quatNormalize(l.slice(3, 7)))) });
  }
  return world;
}

function rotationGap(a, b) {
  const s = a[0] * b[0] + a[1] * b[1] + a[2] * b[2] + a[3] * b[3] < 0 ? -1 : 1;
  return Math.max(...a.map((v, i) => Math.abs(v - s * b[i])));
}

const unit = fc.double({ min: -1, max: 1, noNaN: true });
const unitQuat = fc.tuple(unit, unit, unit, unit).filter((q) => Math.hypot(...q) > 0.1).map(quatNormalize);
const vec = (s) => fc.tuple(fc.double({ min: -s, max: s, noNaN: true }), fc.double({ min: -s, max: s, noNaN: true }), fc.double({ min: -s, max: s, noNaN: true }));

// Joints 0 → 1 → 2 → 3 → 4 (4: the head), eyes 5 and 6 under the head; every rotation random (eye bones of any axis).
const PARENTS = [-1, 0, 1, 2, 3, 4, 4];
// Targets well off the vertical through the head and off the symmetry planes the shrunk
// rotations make (straight above, below or behind has no yaw side: rounding picks one, in the rig
// and the single call alike).
const headCase = fc.record({
  rotations: fc.array(unitQuat, { minLength: 7, maxLength: 7 }),
  target: vec(3).filter(([x, , z]) => Math.hypot(x, z) > 1.6).map(([x, y, z]) => [x + 0.0731, y + 0.0457, z + 0.0389]),
  eyeYaw: fc.double({ min: 0, max: 1.5, noNaN: true }),
});
function locals(rotations) {
  const out = new Float32Array(F * 7);
  const offsets = [[0, 1, 0], [0, 0.2, 0], [0, 0.2, 0], [0, 0.2, 0], [0, 0.15, 0], [0.03, 0.06, 0.08], [-0.03, 0.06, 0.08]];
  offsets.forEach((t, j) => out.set([...t, ...rotations[j], 1, 1, 1], F * j));
  return out;
}
const joint = (w) => ({ position: w.position, rotation: w.rotation });

// Three frames of a rig constraint `kind` with eyes and of the core solver `core` (updated by
// `step(before, target)`); returns the rig's world pose and the core's last result.
function runBoth(kind, rest, pose, target, options, core, step) {
  const rig = new ikpd.Rig({ parents: PARENTS, rest: locals(rest) });
  try {
    const c = rig.add(kind, options);
    rig.input.set(locals(pose));
    rig.frames.set(target, c.frameOffset);
    const before = fk(PARENTS, rig.input);
    let result;
    for (let f = 0; f < 3; f++) {
      rig.update(1 / 60);
      result = step(before);
    }
    return { after: fk(PARENTS, rig.output), result, changed: rig.changed[options.eyes[0]] };
  } finally {
    rig.dispose();
    core.dispose();
  }
}

describe('rig eyes equal the core look-ats with eyes', () => {
  it('lookAt: the eye joints\' world rotations equal ikpd.LookAt\'s eyes (random rest and pose rotations)', () => {
    fc.assert(fc.property(headCase, headCase, ({ rotations: rest }, { rotations: pose, target, eyeYaw }) => {
      const look = new ikpd.LookAt({ weights: [1 / 4, 1 / 3, 1 / 2, 1], forward: [0, 0, 1], eyeYaw });
      const { after, result, changed } = runBoth('lookAt', rest, pose, target, { joints: [1, 2, 3, 4], eyes: [5, 6], forward: [0, 0, 1], eyeYaw }, look,
        (before) => look.update(1 / 60, { joints: [1, 2, 3, 4].map((j) => joint(before[j])), eyes: [joint(before[5]), joint(before[6])], target }));
      for (let k = 0; k < 2; k++) expect(rotationGap(after[5 + k].rotation, result.eyes[k].rotation)).toBeLessThan(5e-5);
      expect(rotationGap(after[4].rotation, result[3].rotation)).toBeLessThan(5e-5);
      expect(changed).toBe(1);
    }), { numRuns: 200 });
  });

  it('bodyLookAt: the eye joints\' world rotations equal ikpd.BodyLookAt\'s eyes', () => {
    fc.assert(fc.property(headCase, headCase, ({ rotations: rest }, { rotations: pose, target, eyeYaw }) => {
      const body = new ikpd.BodyLookAt({ spineJoints: 5, forward: [0, 0, 1], eyeYaw });
      const { after, result } = runBoth('bodyLookAt', rest, pose, target, { joints: [0, 1, 2, 3, 4], eyes: [6, 5], forward: [0, 0, 1], eyeYaw }, body,
        (before) => body.update(1 / 60, { spine: [0, 1, 2, 3, 4].map((j) => joint(before[j])), eyes: [joint(before[6]), joint(before[5])], target }));
      expect(rotationGap(after[6].rotation, result.eyes[0].rotation)).toBeLessThan(5e-5);
      expect(rotationGap(after[5].rotation, result.eyes[1].rotation)).toBeLessThan(5e-5);
    }), { numRuns: 100 });
  });
});

describe('eye options and errors', () => {
  it('the look-ats take eyes and the gaze options, with the core defaults', () => {
    for (const kind of ['lookAt', 'bodyLookAt']) {
      expect(ikpd.Rig.options[kind]).toEqual(expect.arrayContaining(['eyes', 'eyeYaw', 'eyePitchUp', 'eyePitchDown', 'eyeSettleTime']));
      const d = ikpd.Rig.defaults[kind];
      expect(d.eyes).toEqual([]);
      // The C++ defaults, as float32.
      expect([d.eyeYaw, d.eyePitchUp, d.eyePitchDown, d.eyeSettleTime]).toEqual([0.6, 0.4, 0.5, 0.05].map(Math.fround));
    }
    expect(ikpd.Rig.options.twoBone).not.toContain('eyes');
  });

  it('bad eyes name the option and change nothing', () => {
    const parents = [...PARENTS, 3]; // joint 7 hangs from the neck, not the head
    const rig = new ikpd.Rig({ parents });
    const c = rig.add('lookAt', { joints: [1, 2, 3, 4], eyes: [5, 6] });
    rig.frames.set([1, 1, 2], c.frameOffset);
    rig.update(1 / 60);
    const output = Array.from(rig.output);
    expect(() => rig.add('lookAt', { joints: [1, 2, 3, 4], eyes: [5, 7] })).toThrow(/^constraints\[1\]\.eyes\[1\]: must be a descendant of the head joints\[3\] \(joint 4\)/);
    expect(() => rig.add('lookAt', { joints: [1, 2, 3, 4], eyes: [5, 5] })).toThrow(/^constraints\[1\]\.eyes\[1\]: must differ from eyes\[0\]/);
    expect(() => rig.add('lookAt', { joints: [1, 2, 3, 4], eyes: [5, 6, 5] })).toThrow(new RangeError('constraints[1].eyes: needs 0 to 2 entries, got 3'));
    expect(() => rig.add('lookAt', { joints: [1, 2, 3, 4], eyes: [5, 9] })).toThrow(/^constraints\[1\]\.eyes\[1\]: must be a joint index in \[0, 8\)/);
    expect(() => rig.add('lookAt', { joints: [1, 2, 3, 4], eyes: ['leftEye'] })).toThrow(new TypeError('constraints[1].eyes[0]: expected an integer, got string'));
    expect(() => rig.add('twoBone', { joints: [1, 2, 3], eyes: [5] })).toThrow(/^constraints\[1\]\.eyes: unknown option of Rig\.twoBone/);
    expect(() => c.set({ eyes: [7] })).toThrow(/^constraints\[0\]\.eyes\[0\]: must be a descendant of the head/);
    expect(() => c.set({ eyeYaw: 2 })).toThrow(/^constraints\[0\]\.eyeYaw:/);
    expect(() => c.set({ eyeSetleTime: 0.1 })).toThrow(/did you mean 'eyeSettleTime'/);
    expect(rig.constraints.length).toBe(1);
    expect(c.get('eyes')).toEqual([5, 6]);
    expect(c.get('eyeYaw')).toBe(Math.fround(0.6));
    expect(Array.from(rig.output)).toEqual(output);
    c.set({ eyes: [], eyeYaw: 0.3 });
    expect(c.options.eyes).toEqual([]);
    rig.dispose();
  });
});
