// Checks shared by the crowd scene's browser tests (crowd.test.js: three
// batches; crowdRigBatch.test.js: ?solver=rigBatch), on the scene's state():
// where the feet stand and where the heads look, stepped through the test
// hook's simulate() in one page.evaluate each (no rendered frame between).
import { expect, it } from 'vitest';
import { terrainHeight } from '../../demo/lib/terrain.js';

/** Degrees between a head's facing (+Z turned by its rotation) and the line from it to `target`. */
export function headAngle({ position: p, rotation: [x, y, z, w] }, target) {
  const f = [2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y)];
  const d = target.map((t, i) => t - p[i]);
  const cos = (f[0] * d[0] + f[1] * d[1] + f[2] * d[2]) / Math.hypot(...f) / Math.hypot(...d);
  return (Math.acos(Math.min(1, Math.max(-1, cos))) * 180) / Math.PI;
}

/** Mean headAngle over the sampled characters of a state. */
export const meanAngle = (state) => state.sample.reduce((sum, c) => sum + headAngle(c.head, state.target), 0) / state.sample.length;

/**
 * Over the sampled feet of some states: how many stance feet were checked, the
 * worst distance of a stance ankle from its height above the analytic ground
 * (m), and the highest swing ankle above it.
 */
export function footHeights(states) {
  let checked = 0, worst = 0, lifted = -Infinity;
  for (const state of states) {
    for (const { feet } of state.sample) {
      for (const { position: [x, y, z], stance } of feet) {
        const above = y - terrainHeight(x, z) - state.ankleHeight;
        if (stance) {
          checked++;
          worst = Math.max(worst, Math.abs(above));
        } else {
          lifted = Math.max(lifted, above);
        }
      }
    }
  }
  return { checked, worst, lifted };
}

/** Stance feet stand on the ground every frame (within 1 mm) and swing feet lift. Returns the states. */
export async function expectFeetOnGround(page) {
  const states = await page.evaluate(() => {
    const hook = window.__ikpdDemo;
    hook.reset();
    return Array.from({ length: 6 }, () => hook.simulate(1 / 60, 10));
  });
  const { checked, worst, lifted } = footHeights(states);
  expect(checked).toBeGreaterThan(6 * 40);
  expect(worst).toBeLessThan(1e-3); // metres: ankles at their height above the analytic ground
  expect(lifted).toBeGreaterThan(0.03); // swing feet are lifted: some foot is clearly above it
  return states;
}

/** With the target moved to the middle of the rings, the heads' mean angle to it shrinks below 3°. Returns the states. */
export async function expectHeadsTurn(page) {
  const states = await page.evaluate(() => {
    const hook = window.__ikpdDemo;
    hook.reset();
    hook.setTarget('target', [0, 2.4, 0]); // the middle of the rings: within every character's turn
    return [hook.state(), hook.simulate(1 / 60, 6), hook.simulate(1 / 60, 24), hook.simulate(1 / 60, 60)];
  });
  expect(states[0].orbit).toBe(false); // moving the target stops its orbit
  const angles = states.map(meanAngle);
  expect(angles[0]).toBeGreaterThan(60); // from straight ahead, walking round the middle
  for (let i = 1; i < angles.length; i++) expect(angles[i], `after step ${i}`).toBeLessThan(angles[i - 1]);
  expect(angles.at(-1)).toBeLessThan(3);
  return states;
}

/** Standing, half a second of look-at at 30 Hz and at 240 Hz reach the same (unsettled) pose. */
export async function expectSamePoseAt30And240Hz(page) {
  const [slow, fast] = await page.evaluate(() => {
    const hook = window.__ikpdDemo;
    hook.control('walk speed (m/s)', 0);
    const run = (hz) => {
      hook.reset();
      hook.setTarget('target', [3, 2, 8]);
      return hook.simulate(1 / hz, hz / 2); // half a second: mid-turn
    };
    const runs = [run(30), run(240)];
    hook.control('walk speed (m/s)', 0.7);
    return runs;
  });
  let gap = 0;
  slow.sample.forEach((c, k) => c.head.rotation.forEach((v, i) => { gap = Math.max(gap, Math.abs(v - fast.sample[k].head.rotation[i])); }));
  expect(gap).toBeLessThan(2e-3);
  expect(Math.abs(meanAngle(slow) - meanAngle(fast))).toBeLessThan(0.2);
  expect(meanAngle(slow)).toBeGreaterThan(1); // still turning: the comparison is not of settled poses
  return [slow, fast];
}

/**
 * The three checks above as tests, in this order, on the page `pageOf()`
 * gives, each also checking that `solver` ran every step.
 */
export function itWalksAndLooks(solver, pageOf, timeout) {
  const ran = (states) => expect(states.map((s) => s.solver)).toEqual(states.map(() => solver));
  it('stance feet stand on the ground, every frame', async () => ran(await expectFeetOnGround(pageOf())), timeout);
  it('the heads turn toward the target: the angle shrinks', async () => ran(await expectHeadsTurn(pageOf())), timeout);
  it('standing, the look-at reaches the same pose at 30 and 240 Hz', async () => ran(await expectSamePoseAt30And240Hz(pageOf())), timeout);
}
