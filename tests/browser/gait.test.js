// The quadruped demo's trot (demo/lib/gait.js) in plain Node: a body walks toward a far
// lure as the scene's does (turning at most 1.6 rad/s, easing to the wanted speed), and
// every foot must stay within a stride of its rest point, at any speed the slider allows and
// any frame rate from 10 to 240 Hz, with every foot taking steps.
import { describe, expect, it } from 'vitest';
import { createGait, updateGait } from '../../demo/lib/gait.js';

// Toe rest points in body space (x to the left, z forward), diagonal pairs LF+RH, RF+LH.
const TOES = [[0.2, 0.62], [-0.2, 0.62], [0.2, -0.48], [-0.2, -0.48]];
const PAIRS = [0, 1, 1, 0];

function walk({ rate, speed, stride, lure, seconds = 12 }) {
  const body = { x: 0, z: 0, heading: 0, speed: 0 };
  const rests = () => TOES.map(([lx, lz]) => {
    const s = Math.sin(body.heading);
    const c = Math.cos(body.heading);
    return [body.x + c * lx + s * lz, body.z - s * lx + c * lz];
  });
  const gait = createGait(rests(), PAIRS);
  const dt = 1 / rate;
  for (let t = 0; t < seconds; t += dt) {
    const before = rests();
    const dx = lure[0] - body.x;
    const dz = lure[1] - body.z;
    let turn = Math.atan2(dx, dz) - body.heading;
    turn = Math.atan2(Math.sin(turn), Math.cos(turn));
    body.heading += Math.max(-1.6 * dt, Math.min(1.6 * dt, turn));
    const wanted = Math.hypot(dx, dz) > 0.9 ? speed * Math.max(0, Math.cos(turn)) : 0;
    body.speed += (wanted - body.speed) * Math.min(1, dt * 3);
    body.x += Math.sin(body.heading) * body.speed * dt;
    body.z += Math.cos(body.heading) * body.speed * dt;
    const after = rests();
    updateGait(gait, (f) => before.map((b, i) => [b[0] + (after[i][0] - b[0]) * f, b[1] + (after[i][1] - b[1]) * f]), dt, { stride });
  }
  return { gait, travelled: Math.hypot(body.x, body.z) };
}

describe('quadruped gait', () => {
  for (const rate of [10, 24, 60, 144, 240]) {
    for (const speed of [0.3, 0.9, 2]) {
      for (const stride of [0.1, 0.28, 0.5]) {
        it(`${rate} Hz, speed ${speed}, stride ${stride}: every foot steps and stays within a stride of rest`, () => {
          for (const lure of [[20, 20], [-25, -3], [0, 30]]) {
            const { gait, travelled } = walk({ rate, speed, stride, lure });
            expect(travelled).toBeGreaterThan(speed * 3);
            expect(gait.maxOffset).toBeLessThanOrEqual(stride);
            for (const foot of gait.feet) expect(foot.swings).toBeGreaterThan(3);
          }
        });
      }
    }
  }

  it('settles on the rest points when the body stops', () => {
    const rests = TOES.map(([x, z]) => [x + 0.3, z]);
    const gait = createGait(TOES, PAIRS);
    for (let i = 0; i < 60; i++) updateGait(gait, () => rests, 1 / 60, { stride: 0.28 });
    gait.feet.forEach((f, i) => {
      expect(f.swing).toBe(-1);
      expect(Math.hypot(f.position[0] - rests[i][0], f.position[1] - rests[i][1])).toBeLessThan(0.28 * 0.25);
    });
  });
});
