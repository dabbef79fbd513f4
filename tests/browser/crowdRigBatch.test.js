// The crowd scene on RigBatch (?solver=rigBatch; demo/lib/crowdRigBatch.js) in
// headless Chromium (WebGPU on SwiftShader): one RigBatch.update per frame
// solves 2,000 characters drawn as the same instanced meshes; the readout
// names RigBatch and its time per frame; the stance feet stand on the
// analytic ground; the heads turn toward the target, to the same pose at 30
// and 240 Hz; the solver control switches to the three batches and back in
// the same page, freeing what it replaced. Steps run through the test hook's
// simulate(), so no rendered frame steps in between.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { artifactPath, openDemoSession } from './browser.js';
import { pixelStats } from './pixels.js';
import { itWalksAndLooks } from './crowd-checks.js';

const SLOW = 240_000;
const CENTER = { x: 0.25, y: 0.2, width: 0.5, height: 0.55 };
let session;
let page;
let errors = [];

beforeAll(async () => {
  session = await openDemoSession('?output=hdr&solver=rigBatch#crowd');
  ({ page, errors } = session);
}, SLOW);

afterAll(() => session?.close());

const demo = (fn, arg) => page.evaluate(fn, arg);

it('?solver=rigBatch runs the crowd on RigBatch: instances, readout, a drawn frame', async () => {
  await demo(() => window.__ikpdDemo.renderFrames(3));
  const state = await demo(() => window.__ikpdDemo.state());
  expect(state).toMatchObject({ solver: 'rigBatch', solverRequested: 'rigBatch', characters: 2000 });
  expect(state.instancedMeshes).toBe(Object.keys(state.perCharacter).length);
  for (const [kind, per] of Object.entries(state.perCharacter)) expect(state.instances[kind], kind).toBe(per * state.characters);
  expect(Object.keys(state.times).sort()).toEqual(['script', 'solve']); // one call: no split into limbs and look-at
  for (const [key, ms] of Object.entries(state.times)) expect(Number.isFinite(ms) && ms > 0, key).toBe(true);
  expect(state.panel[1]).toMatch(/^solve \d+\.\d\d ms per frame: RigBatch\.update \(look-at and limbs in one call\)$/);
  expect(state.panel[4]).toContain('solver: RigBatch');
  console.log(`crowd on RigBatch, ${state.characters} characters, threads ${state.threads}: ${state.panel[1]}; ${state.panel[2]}`);
  const jpeg = await page.screenshot({ path: artifactPath('demo-crowd-rigbatch.jpg'), type: 'jpeg', quality: 85 });
  const stats = await pixelStats(page, jpeg, CENTER);
  expect(stats.std).toBeGreaterThan(4);
  expect(stats.distinct).toBeGreaterThan(50);
  expect(errors).toEqual([]);
  expect(await demo(() => window.__ikpdDemo.errors)).toEqual([]);
}, SLOW);

itWalksAndLooks('rigBatch', () => page, SLOW);

it('the solver control switches to the three batches and back in the same page, freeing what it replaced', async () => {
  const result = await demo(() => {
    const hook = window.__ikpdDemo;
    const steady = () => hook.simulate(1 / 60, 120); // the readout after 120 frames, no rendering between them
    const before = hook.wasmMemory().usedBytes;
    const rigBatch = steady();
    hook.control('solver', 'batches');
    const batches = { ...steady(), search: location.search };
    hook.control('solver', 'rigBatch');
    const back = { ...steady(), search: location.search };
    return { before, after: hook.wasmMemory().usedBytes, rigBatch, batches, back };
  });
  expect(result.batches.solver).toBe('batches');
  expect(result.batches.panel[4]).toContain('three batches');
  expect(result.batches.search).toContain('solver=batches');
  expect(result.back.solver).toBe('rigBatch');
  expect(result.back.search).toContain('solver=rigBatch');
  expect(result.back.instancedMeshes).toBe(Object.keys(result.back.perCharacter).length); // the old meshes are gone
  expect(result.after).toBe(result.before);
  for (const s of [result.rigBatch, result.batches]) {
    const t = Object.entries(s.times).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ');
    console.log(`crowd, ${s.characters} characters, ${s.solver}, threads ${s.threads}, 120 simulated frames (headless SwiftShader): ${t} ms`);
  }
  expect(await demo(() => window.__ikpdDemo.errors)).toEqual([]);
}, SLOW);
