// The sample characters (demo/assets/README.md) in headless Chromium: the
// samples scene plays CesiumMan on the grounding course and the Fox on hills
// with their grounding and look-at, without console errors; dropped onto the
// character scene, CesiumMan is rigged and walks with grounding and look-at,
// while the Fox (not a humanoid) and a file without a skeleton are refused
// with a message and leave the scene exactly as it was. Both views render on
// the WebGL2 backend too.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, dropFile, openDemoSession } from './browser.js';
import { pixelStats } from './pixels.js';

const SLOW = 300_000;
const CENTER = { x: 0.25, y: 0.2, width: 0.5, height: 0.55 };
const asset = (name) => Array.from(readFileSync(new URL(`../../demo/assets/${name}`, import.meta.url)));

// One triangle and no skeleton: a file the character scene cannot rig.
function triangleGltf() {
  const data = Buffer.from(new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0]).buffer).toString('base64');
  const gltf = {
    asset: { version: '2.0' }, scene: 0, scenes: [{ nodes: [0] }], nodes: [{ mesh: 0 }],
    meshes: [{ primitives: [{ attributes: { POSITION: 0 } }] }],
    accessors: [{ bufferView: 0, componentType: 5126, count: 3, type: 'VEC3', min: [0, 0, 0], max: [1, 1, 0] }],
    bufferViews: [{ buffer: 0, byteLength: 36 }],
    buffers: [{ byteLength: 36, uri: `data:application/octet-stream;base64,${data}` }],
  };
  return Array.from(Buffer.from(JSON.stringify(gltf)));
}

/** Numbers rounded to 0.1 mm / 1e-4, for comparing poses across frames. */
const rounded = (value) => JSON.parse(JSON.stringify(value, (_, v) => (typeof v === 'number' ? Math.round(v * 1e4) / 1e4 + 0 : v)));

/** Stops the walker and puts the look target 1.5 m ahead of its head, a little to its left. */
async function lookAhead(page) {
  await page.evaluate(() => window.__ikpdDemo.control('speed (×)', 0));
  const { head, forward } = await page.evaluate(() => window.__ikpdDemo.state());
  const left = [forward[2], 0, -forward[0]];
  await page.evaluate((p) => window.__ikpdDemo.setTarget('look target', p), head.map((h, i) => h + 1.5 * forward[i] + 0.4 * left[i] + (i === 1 ? -0.1 : 0)));
}

describe('sample characters', () => {
  let session;
  beforeAll(async () => { session = await openDemoSession('?output=hdr#samples'); }, SLOW);
  afterAll(() => session?.close());

  it('CesiumMan walks the course with grounding and a look-at', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.select('samples', { frames: 3 }));
    const state = await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 900));
    expect(state.character).toBe('CesiumMan');
    expect(state.constraints).toEqual(['grounding', 'lookAt']);
    expect(state.speed).toBeGreaterThan(0.85);
    expect(state.speed).toBeLessThan(1.05);
    expect(state.distance).toBeGreaterThan(12); // over the ramp, the platform and the stairs
    expect(state.grounding.enabled).toBe(true);
    // Stance soles where the clip puts them above the course (median over the stance frames).
    expect(state.summary.frames).toBeGreaterThan(200);
    expect(state.summary.soleError.median).toBeLessThan(1e-3);
    // Planted soles: CesiumMan's toe rolls and lifts in the second half of its stance, where
    // the lock lets go; over the stance from its first quarter on they move about 1 cm.
    expect(state.summary.slide.median).toBeLessThan(0.02);
    // Stopped, with the target ahead and to its left: the look-at reaches it.
    await lookAhead(page);
    const look = await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 120).lookAt);
    expect(look.enabled).toBe(true);
    expect(look.distance).toBeLessThan(0.01);
    await page.evaluate(() => window.__ikpdDemo.control('speed (×)', 1));
    const jpeg = await page.screenshot({ path: artifactPath('demo-samples-cesium.jpg'), type: 'jpeg', quality: 85 });
    expect((await pixelStats(page, jpeg, CENTER)).std).toBeGreaterThan(4);
    expect(errors).toEqual([]);
  }, SLOW);

  it('the Fox walks, runs and surveys on the hills with a four-legged grounding', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.control('character', 'Fox'));
    for (const clip of ['Walk', 'Run', 'Survey']) {
      await page.evaluate((c) => window.__ikpdDemo.control('clip', c), clip);
      const state = await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 300));
      expect(state.character).toBe('Fox');
      expect(state.clip).toBe(clip);
      expect(state.constraints).toEqual(['grounding', 'lookAt']);
      expect(state.feet).toHaveLength(4);
      expect(state.grounding.enabled).toBe(true);
      if (clip === 'Survey') expect(state.speed).toBeLessThan(0.01); // standing
      else expect(state.speed).toBeGreaterThan(0.5);
      expect(state.summary.soleError.median).toBeLessThan(1e-3);
    }
    await lookAhead(page);
    expect((await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 120))).lookAt.distance).toBeLessThan(0.01);
    await page.evaluate(() => window.__ikpdDemo.control('speed (×)', 1));
    await page.evaluate(() => window.__ikpdDemo.control('clip', 'Walk'));
    await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 60));
    const jpeg = await page.screenshot({ path: artifactPath('demo-samples-fox.jpg'), type: 'jpeg', quality: 85 });
    expect((await pixelStats(page, jpeg, CENTER)).std).toBeGreaterThan(4);
    expect(errors).toEqual([]);
  }, SLOW);

  it('a dropped CesiumMan walks the character scene with grounding and look-at', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.select('character', { frames: 3 }));
    await dropFile(page, 'CesiumMan.gltf', asset('CesiumMan.gltf'));
    await page.waitForFunction(() => window.__ikpdDemo.state().name === 'CesiumMan.gltf' || window.__ikpdDemo.state().message !== '', null, { timeout: 120_000 });
    let lowest = Infinity;
    let state;
    for (let i = 0; i < 10; i++) {
      state = await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 60));
      lowest = Math.min(lowest, ...state.toes);
    }
    expect(state.message).toBe('');
    expect(state.name).toBe('CesiumMan.gltf');
    expect(state.humanoid).toEqual(expect.arrayContaining(['hips', 'head', 'leftToes', 'rightHand']));
    expect(state.constraints).toEqual(['grounding', 'lookAt', 'twoBone', 'twist']);
    expect(state.walking).toBe(true);
    expect(Math.hypot(state.root[0], state.root[2])).toBeGreaterThan(0.5); // on the oval
    // Its feet on the ground: no toe below it, each stance toe down to it (its rest height is
    // 2.9 cm at this scale, and the clip's stance toe goes lower), a planted sole on it.
    expect(lowest).toBeGreaterThan(-5e-3);
    expect(lowest).toBeLessThan(0.02);
    expect(state.grounded.distance).toBeLessThan(5e-3);
    // Standing still at the origin (facing +Z), looking at the red target ahead of it: reached.
    await page.evaluate(() => window.__ikpdDemo.control('animation', 'still'));
    await page.evaluate(() => window.__ikpdDemo.control('look at', 'target'));
    await page.evaluate(() => window.__ikpdDemo.setTarget('look target', [0.4, 1.5, 1.6]));
    const still = await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 120));
    expect(still.lookAt.enabled).toBe(true);
    expect(still.lookAt.distance).toBeLessThan(0.01);
    expect(errors).toEqual([]);
  }, SLOW);

  it('a dropped Fox or a file without a skeleton is refused and changes nothing', async () => {
    const { page, errors } = session;
    await page.evaluate(() => window.__ikpdDemo.control('animation', 'still'));
    await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 120));
    const before = await page.evaluate(() => ({ state: window.__ikpdDemo.state(), wasm: window.__ikpdDemo.wasmMemory() }));
    for (const [name, bytes, why] of [['Fox.gltf', asset('Fox.gltf'), /not a humanoid/], ['triangle.gltf', triangleGltf(), /no skinned mesh/]]) {
      await dropFile(page, name, bytes);
      await page.waitForFunction((n) => window.__ikpdDemo.state().message.startsWith(n), name, { timeout: 120_000 });
      const after = await page.evaluate(() => ({ state: window.__ikpdDemo.state(), wasm: window.__ikpdDemo.wasmMemory() }));
      expect(after.state.message).toMatch(why);
      expect(after.state.message).toMatch(/unchanged/);
      const { message: _m, ...was } = before.state;
      const { message: _n, ...is } = after.state;
      // The same character, rig and pose (the frames drawn meanwhile only round off its PDs).
      expect(rounded(is)).toEqual(rounded(was));
      expect(after.wasm).toEqual(before.wasm);
      await page.evaluate(() => window.__ikpdDemo.renderFrames(1)); // a frame draws the panel
      expect(await page.evaluate(() => document.body.innerText)).toContain(name);
    }
    expect(errors).toEqual([]);
  }, SLOW);
});

describe('sample characters on the WebGL2 backend', () => {
  let session;
  beforeAll(async () => { session = await openDemoSession('?output=hdr&renderer=webgl#samples'); }, SLOW);
  afterAll(() => session?.close());

  it('both views render without console errors, their grounding active', async () => {
    const { page, errors } = session;
    for (const character of ['CesiumMan', 'Fox']) {
      await page.evaluate(() => window.__ikpdDemo.select('samples', { frames: 3 }));
      await page.evaluate((c) => window.__ikpdDemo.control('character', c), character);
      const state = await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 240));
      expect(state.character).toBe(character);
      expect(state.grounding.enabled).toBe(true);
      expect(state.summary.frames).toBeGreaterThan(0);
      await page.evaluate(() => window.__ikpdDemo.renderFrames(2));
      const jpeg = await page.screenshot({ path: artifactPath(`demo-samples-${character}-webgl.jpg`), type: 'jpeg', quality: 85 });
      expect((await pixelStats(page, jpeg, CENTER)).std).toBeGreaterThan(4);
    }
    expect(errors).toEqual([]);
    expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
  }, SLOW);
});
