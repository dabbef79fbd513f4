// The three single-threaded modules (docs/loading.md, "Modules"): init()
// loads the smallest that has every area asked for, classes of an area the
// loaded module lacks throw an Error that names the init() option, and a
// later init() reuses an earlier load that has what it asks for. This file
// is its own module graph (Vitest isolates files), so its first init() is
// the first load.
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { Bone, Object3D, Vector3 } from 'three';
import { init } from '../../web/index.js';
import { MODULES, createModule } from '../../web/src/module.js';
import { BodyLookAtIK, IKRig, LookAtIK, TwoBoneIK } from '../../web/three/index.js';
import { buildChain, randomQuaternion, rng, segmentLengths, worldPosition } from '../support/three-rig.js';

const RIG_CLASSES = { Rig: () => ({ parents: [-1, 0] }), LookAt: () => ({ weights: [1] }), BodyLookAt: () => ({}) };
const BATCH_CLASSES = ['TwoBoneBatch', 'AimBatch', 'PseudoThreeBoneBatch', 'PDBatch', 'QuatPDBatch'];
const joint = (x) => ({ position: [x, 0, 0] });
const chain = () => {
  const bones = [new Bone(), new Bone(), new Bone()];
  bones[1].position.set(0, -0.5, 0);
  bones[2].position.set(0, -0.5, 0);
  bones[0].add(bones[1]);
  bones[1].add(bones[2]);
  return bones;
};
const missing = (area, user, module) => new RegExp(`^${user}: the ${area} area is not in the module init\\(\\) loaded ` +
  `\\(areas: ${MODULES.find((m) => m.name === module).areas.join(', ')}\\); load it with init\\(\\{ ${area}: true \\}\\)`);

// Every area the module has works; every one it lacks names its option.
function expectAreas(ikpd, module) {
  expect(ikpd.solveTwoBone({ root: joint(0), mid: joint(1), end: joint(2), target: [1, 1, 0] }).reached).toBe(true);
  const pd = new ikpd.QuatPD();
  pd.dispose();
  ikpd.hdr.createBuffer(4, 4).dispose();
  const hasRig = ikpd.areas.includes('rig'), hasBatch = ikpd.areas.includes('batch');
  for (const [name, options] of Object.entries(RIG_CLASSES)) {
    if (hasRig) new ikpd[name](options()).dispose();
    else expect(() => new ikpd[name](options())).toThrow(missing('rig', name, module));
  }
  for (const name of BATCH_CLASSES) {
    if (hasBatch) new ikpd[name](8).dispose();
    else expect(() => new ikpd[name](8)).toThrow(missing('batch', name, module));
  }
  if (hasRig && !hasBatch) {
    const rig = new ikpd.Rig({ parents: [-1, 0, 1] });
    rig.add('twoBone', { joints: [0, 1, 2] });
    expect(() => new ikpd.RigBatch({ rig, count: 4 })).toThrow(missing('batch', 'RigBatch', module));
    rig.dispose();
  }
}

describe('init() loads the module with the areas asked for', () => {
  it('init(): ik, pd and hdr; the rig and batch classes and the three.js rigs name init({ rig }) and init({ batch })', async () => {
    const ikpd = await init();
    expect(ikpd.areas).toEqual(['ik', 'pd', 'hdr']);
    expectAreas(ikpd, 'ikpd');
    const bones = chain();
    expect(() => new IKRig(ikpd, bones[0])).toThrow(missing('rig', 'IKRig', 'ikpd'));
    expect(() => new LookAtIK(ikpd, bones)).toThrow(missing('rig', 'LookAtIK', 'ikpd'));
    // Before looking for its bones (this root has none of the preset's).
    expect(() => new BodyLookAtIK(ikpd, bones[0])).toThrow(missing('rig', 'BodyLookAtIK', 'ikpd'));
    expect(await init()).toBe(ikpd);
  });

  it('init({ rig: true }): a second module with the rig; init({ batch: true }): a third with everything', async () => {
    const core = await init();
    const rig = await init({ rig: true });
    expect(rig).not.toBe(core);
    expect(rig.areas).toEqual(['ik', 'pd', 'hdr', 'rig']);
    expectAreas(rig, 'ikpd-rig');
    const all = await init({ batch: true, rig: true });
    expect(all.areas).toEqual(['ik', 'pd', 'hdr', 'rig', 'batch']);
    expectAreas(all, 'ikpd-batch');
    // Later calls get the first load that has what they ask for.
    expect(await init({ rig: true })).toBe(rig);
    expect(await init({ batch: true })).toBe(all);
    expect(await init({ rig: false })).toBe(core);
  });

  it('init({ rig: true }) runs the three.js helpers: a TwoBoneIK with −Z bones, a bent rest pose, a turned and scaled parent', async () => {
    const rig = await init({ rig: true });
    const { scene, bones, tip } = buildChain({ axis: new Vector3(0, 0, -1), parentRotation: randomQuaternion(rng(5)), parentScale: 1.7 });
    const [a, b] = segmentLengths(bones);
    const target = new Object3D();
    scene.add(target);
    target.position.copy(worldPosition(bones[0])).add(new Vector3(0.3, -0.8, 0.5).normalize().multiplyScalar(0.8 * (a + b)));
    const ik = new TwoBoneIK(rig, bones, { target, effector: tip });
    ik.update();
    expect(worldPosition(tip).distanceTo(worldPosition(target))).toBeLessThan(1e-4 * (a + b));
    expect(ik.reached).toBe(true);
    ik.dispose();
  });

  it('a bad flag is a TypeError naming it, checked before any load is reused', async () => {
    await expect(init({ rig: 1 })).rejects.toThrow(/^rig: expected a boolean, got number$/);
    await expect(init({ batch: 'yes' })).rejects.toThrow(/^batch: expected a boolean, got string$/);
    await expect(init({ batches: true })).rejects.toThrow(/^batches: unknown option of init \(did you mean 'batch'\?\)/);
  });

  it('init({ wasm }) takes the .wasm of the module its flags name; another module\'s is a TypeError naming the glue', async () => {
    const bytes = (name) => readFileSync(new URL(`../../web/lib/${name}.wasm`, import.meta.url));
    const rig = await createModule({ rig: true, wasm: bytes('ikpd-rig') });
    expect(rig.ikpdModule.name).toBe('ikpd-rig');
    await expect(createModule({ rig: true, wasm: bytes('ikpd') })).rejects.toThrow(
      /^wasm: this is the \.wasm of ikpd \(hdr, ik, pd\), not of ikpd-rig, the module init\(\)'s options ask for \(ik, pd, hdr, rig\); load it with init\(\{ wasm \}\)$/);
    await expect(createModule({ wasm: bytes('ikpd-batch') })).rejects.toThrow(
      /^wasm: this is the \.wasm of ikpd-batch \(.*\), not of ikpd, .*; load it with init\(\{ batch: true, wasm \}\)$/);
  });
});

describe('module sizes', () => {
  const gzipped = (file) => gzipSync(readFileSync(new URL(`../../web/lib/${file}`, import.meta.url)), { level: 9 }).length;
  const sizes = MODULES.map(({ name }) => gzipped(`${name}.wasm`) + gzipped(`${name}.mjs`));

  it('the default module, .wasm + glue gzipped, is at most 100 KB (BENCHMARKS.md, "Size and init()")', () => {
    expect(sizes[0]).toBeLessThanOrEqual(100_000);
  });

  it('each module is larger than the one before it (each adds an area)', () => {
    expect(sizes[1]).toBeGreaterThan(sizes[0]);
    expect(sizes[2]).toBeGreaterThan(sizes[1]);
  });
});
