// The character scene (IKRig on a skinned humanoid) in headless Chromium, in
// WebGPU and through the WebGL2 backend: it loads without console errors and
// renders a non-blank frame, the character walks with grounding, the hand
// reaches the cup, and a .glb dropped onto the page (written by GLTFExporter
// in Node) is mapped and rigged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { artifactPath, dropFile, openDemoSession } from './browser.js';
import { pixelStats } from './pixels.js';
import { exportHumanoidGlb } from '../support/gltf-round-trip.js';

const SLOW = 240_000;
const CENTER = { x: 0.25, y: 0.2, width: 0.5, height: 0.55 };

for (const renderer of ['webgpu', 'webgl']) {
  describe(renderer, () => {
    let session;
    beforeAll(async () => {
      session = await openDemoSession(`?output=hdr${renderer === 'webgl' ? '&renderer=webgl' : ''}#character`);
    }, SLOW);
    afterAll(() => session?.close());

    it('loads without console errors, renders, and the hand reaches the cup', async () => {
      const { page, errors } = session;
      await page.evaluate(() => window.__ikpdDemo.select('character', { frames: 3 }));
      // Walking: grounded on the platform's function ground, no error.
      const walked = await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 600));
      expect(walked.animation).toBe('walk');
      expect(walked.message).toBe('');
      expect(walked.constraints).toEqual(['grounding', 'lookAt', 'twoBone', 'twist']);
      expect(Math.hypot(walked.root[0], walked.root[2])).toBeGreaterThan(0.5);
      // Standing by the cup with the idle: the hand reaches it.
      await page.evaluate(() => window.__ikpdDemo.control('animation', 'idle'));
      await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 120));
      const state = await page.evaluate(() => window.__ikpdDemo.state());
      expect(state.message).toBe('');
      expect(state.constraints).toEqual(['grounding', 'lookAt', 'twoBone', 'twist']);
      expect(state.eyes).toEqual(['mixamorigLeftEye', 'mixamorigRightEye']); // the look-at turns them (eyes: 'auto')
      // The idle animation moves the chest under the arm: the smoothed offset trails it by a few mm (docs/rig/rig.md, lag).
      expect(state.handToCup).toBeLessThan(5e-3);
      // The forearm shares the hand's twist (docs/rig/twist.md) without moving the hand off the cup; off, it blends out.
      expect(Number.isFinite(state.twist.radians)).toBe(true);
      await page.evaluate(() => window.__ikpdDemo.control('forearm twist (off → blend out)', false));
      await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 60));
      const untwisted = await page.evaluate(() => window.__ikpdDemo.state());
      expect(untwisted.twist.enabled).toBe(false);
      expect(untwisted.handToCup).toBeLessThan(5e-3);
      const jpeg = await page.screenshot({ path: artifactPath(`demo-character-${renderer}.jpg`), type: 'jpeg', quality: 85 });
      const stats = await pixelStats(page, jpeg, CENTER);
      expect(stats.std).toBeGreaterThan(4);
      expect(errors).toEqual([]);
      expect(await page.evaluate(() => window.__ikpdDemo.errors)).toEqual([]);
    }, SLOW);

    if (renderer === 'webgpu') {
      it('rigs a dropped .glb (Mixamo names, mixed bone axes, a turned centimetre armature)', async () => {
        const { page, errors } = session;
        const bytes = Array.from(await exportHumanoidGlb({ axes: 'mixed', mixamoArmature: true, seed: 4 }));
        await dropFile(page, 'dropped.glb', bytes);
        await page.waitForFunction(() => window.__ikpdDemo.state().humanoid.length > 20 && window.__ikpdDemo.state().constraints.length > 0, null, { timeout: 60_000 });
        await page.evaluate(() => window.__ikpdDemo.simulate(1 / 60, 120));
        const state = await page.evaluate(() => window.__ikpdDemo.state());
        expect(state.message).toBe('');
        expect(state.humanoid).toEqual(expect.arrayContaining(['hips', 'head', 'rightHand', 'leftEye']));
        expect(state.constraints).toEqual(['grounding', 'lookAt', 'twoBone', 'twist']);
        expect(state.eyes).toHaveLength(2);
        expect(state.handToCup).toBeLessThan(1e-3);
        expect(errors).toEqual([]);
      }, SLOW);

      // A model whose bone names say nothing is rigged by its shape (docs/rig/rig.md, "Humanoid
      // roles"); files that are no humanoid are refused in tests/browser/samples.test.js.
      it('rigs a dropped model with unnamed bones by its shape', async () => {
        const { page, errors } = session;
        const before = await page.evaluate(() => window.__ikpdDemo.state());
        const bytes = Array.from(await exportHumanoidGlb({ names: null }));
        await dropFile(page, 'robot.glb', bytes);
        await page.waitForFunction((name) => {
          const s = window.__ikpdDemo.state();
          return s.message !== '' || s.name !== name;
        }, before.name, { timeout: 60_000 });
        const state = await page.evaluate(() => window.__ikpdDemo.state());
        expect(state.message).toBe('');
        expect(state.humanoid).toEqual(expect.arrayContaining(['hips', 'head', 'leftUpperLeg', 'rightHand']));
        expect(state.constraints).toContain('grounding');
        expect(errors).toEqual([]);
      }, SLOW);
    }
  });
}
