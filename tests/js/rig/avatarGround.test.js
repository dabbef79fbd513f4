// The avatar's steps on uneven ground (docs/rig/avatar.md, "Uneven ground")
// through AvatarIK on CesiumMan standing (its walk held on its first frame),
// the head and hands carried 1 m forward over 3 s across a 10 cm step
// (`ground`: a function, as grounding takes it) at 30, 60, 90 and 240 Hz:
// a planted foot on the step stands 10 cm above where the same walk's feet
// stand on flat ground (within 1 mm), no foot goes into the step; without a
// ground, or with it set back to null, the flat walk bit for bit; a bad
// ground named, nothing changed.
import { describe, expect, it } from 'vitest';
import { Plane, Vector3 } from 'three';
import { ikpd } from '../../support/setup.js';
import { AvatarIK } from '../../../web/three/index.js';
import { avatarSession, worldOf } from '../../support/cesiumMan.js';

const TARGETS = ['head', 'leftHand', 'rightHand'];
const EDGE = 0.3, RISE = 0.1, WALK = 1.0; // the step's edge (z), its height; how far the body walks
const forward = (t) => WALK * Math.min(Math.max((t - 0.5) / 3, 0), 1);

function place(targets, bone, t) {
  for (const role of TARGETS) {
    const target = targets[role];
    bone('animated', role).getWorldPosition(target.position);
    target.position.z += forward(t);
    bone('animated', role).getWorldQuaternion(target.quaternion);
    target.updateMatrixWorld(true);
  }
}
const _hit = { height: 0, normal: new Vector3(0, 1, 0) };
const step = (x, y, z) => { _hit.height = z >= EDGE ? RISE : 0; return _hit; };
const session = (options = {}) => avatarSession(ikpd, AvatarIK, { roles: TARGETS, place, options });
const FEET = ['leftFoot', 'rightFoot'];

// The walk at `rate`: each foot's path (world).
async function walk(rate, options, change = null) {
  const { avatar, bone, step: frame, pair } = await session(options);
  for (const who of [pair.solved, pair.animated]) who.mixer.timeScale = 0; // standing: only the body's walk steps
  const paths = { leftFoot: [], rightFoot: [] };
  for (let f = 1; f <= 5 * rate; f++) {
    if (change) change(avatar, f / rate);
    frame(rate, f);
    for (const role of FEET) paths[role].push(worldOf(bone('solved', role)));
  }
  avatar.dispose();
  return paths;
}

describe('AvatarIK steps on uneven ground (CesiumMan)', () => {
  for (const rate of [30, 60, 90, 240]) {
    it(`the feet land on a 10 cm step as they land on flat ground (${rate} Hz)`, async () => {
      const flat = await walk(rate, {});
      const stepped = await walk(rate, { ground: step });
      for (const role of FEET) {
        // The last plant is on the step, 10 cm above the flat walk's (standing, its plants all stand as high;
        // the flat walk's may take one more settling step: its leg, 10 cm lower, stands straight).
        const a = flat[role].at(-1), b = stepped[role].at(-1);
        expect(b.z, role).toBeGreaterThan(EDGE + 0.05);
        expect(Math.abs(b.y - a.y - RISE), role).toBeLessThan(1e-3);
        // Planted over the step (still since the last frame): as high above it as the flat walk's plant;
        // no frame puts the foot into the step (lower over it than the flat walk's standing foot).
        const stand = a.y;
        let planted = 0;
        stepped[role].forEach((p, f) => {
          if (p.z < EDGE + 0.02) return;
          expect(p.y - RISE, `${role} at ${f}`).toBeGreaterThan(stand - 1e-3);
          if (f > 0 && p.distanceTo(stepped[role][f - 1]) < 1e-7) planted++, expect(Math.abs(p.y - RISE - stand), `${role} at ${f}`).toBeLessThan(1e-3);
        });
        expect(planted, role).toBeGreaterThan(rate / 2);
      }
    });
  }

  it('no ground, or a ground set back to null, is the flat walk bit for bit', async () => {
    const flat = await walk(60, {});
    const none = await walk(60, { ground: null });
    const back = await walk(60, { ground: step }, (avatar, t) => { if (t === 0.25) avatar.ground = null; });
    for (const role of FEET) {
      expect(none[role].map((p) => p.toArray())).toEqual(flat[role].map((p) => p.toArray()));
      expect(back[role].map((p) => p.toArray())).toEqual(flat[role].map((p) => p.toArray()));
    }
  });

  it('a Plane or meshes work as grounding takes them; a bad ground is named, nothing changed', async () => {
    const plane = await walk(30, { ground: new Plane(new Vector3(0, 1, 0), -RISE) });
    const flat = await walk(30, {});
    for (const role of FEET) expect(plane[role].at(-1).y - flat[role].at(-1).y).toBeCloseTo(RISE, 3);
    const { avatar } = await session({ ground: step });
    expect(() => { avatar.ground = 5; }).toThrow(TypeError);
    expect(() => { avatar.ground = 5; }).toThrow(/ground/);
    expect(avatar.ground).toBe(step);
    expect(() => avatar.constraint.set({ ground: 'x', stepHeight: 0.1 })).toThrow(/ground/);
    expect(avatar.ground).toBe(step);
    expect(avatar.constraint.stepHeight).toBeCloseTo(0.08, 6);
    avatar.dispose();
    await expect(session({ grund: step })).rejects.toThrow(/ground/);
  });
});
