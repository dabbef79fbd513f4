// ikpd.RigBatch with a springs constraint (docs/rig/rig-batch.md, "Kinds with
// state"): every avatar keeps its own spring state and moves bit for bit as
// its own Rig fed the same inputs (different chains, colliders, weights, dt in
// [0, 0.1] with 0), on one and on two threads (the threaded module);
// enable/weight blend as in the Rig; clearSmoothing per avatar; errors name
// the parameter and change nothing.
import { afterAll, describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { rng } from '../../support/three-rig.js';
import { createModule } from '../../../web/src/module.js';
import { createApi } from '../../../web/src/api.js';
import { createSpringsCrowdRig, fillSpringsCrowdFrame, springsCrowdSkeleton } from '../../../bench/js/springs_crowd.js';

const F = 10;
const threaded = createApi(await createModule({ threads: 2 }));
const made = [];
afterAll(() => made.forEach((o) => o.dispose()));
const keep = (o) => { made.push(o); return o; };
const bits = (view) => Array.from(new Uint32Array(view.buffer, view.byteOffset, view.length));

// Three avatars' stacks: the crowd avatar; fewer chains with per-joint settings, a capsule, a virtual tip and
// settleTime; an aim on the head before springs centred on the root, with wind.
const VARIANTS = [
  (api) => createSpringsCrowdRig(api),
  (api) => {
    const { parents, rest, chains } = springsCrowdSkeleton();
    const rig = new api.Rig({ parents, rest });
    const picked = [chains[0].slice(0, 5), chains[2], chains[4].slice(0, 3)];
    const r = rng(7);
    rig.add('springs', {
      chains: picked, center: 1, tipLength: 0.04, settleTime: 0.2,
      jointSettings: picked.flat().map(() => ({ stiffness: 3 * r(), dragForce: r(), gravityPower: r(), gravityDir: [0, -1, 0.2], hitRadius: 0.02 * r() })),
      colliders: [{ joint: 2, offset: [0, 0.1, 0], radius: 0.09 }, { joint: 1, shape: 'capsule', offset: [0, -0.05, 0], tail: [0, 0.05, 0], radius: 0.05 }],
    });
    return rig;
  },
  (api) => {
    const { parents, rest, chains } = springsCrowdSkeleton();
    const rig = new api.Rig({ parents, rest });
    rig.add('aim', { joints: [2] });
    rig.add('springs', { chains: chains.slice(1, 4), weight: 0.7, wind: [0.3, 0, 0], colliders: [{ joint: 2, offset: [0, 0.1, 0], radius: 0.1 }] });
    return rig;
  },
];

// Avatar c's inputs from the batch into its Rig; weight: the constraint's × the avatar's, in float as the batch.
function feedRig(rig, batch, c, weights) {
  const n = batch.count;
  for (let j = 0; j < rig.count; j++) {
    rig.input.set(batch.translations.subarray(3 * (j * n + c), 3 * (j * n + c) + 3), F * j);
    rig.input.set(batch.rotations.subarray(4 * (j * n + c), 4 * (j * n + c) + 4), F * j + 3);
    rig.input.set(batch.scales.subarray(3 * (j * n + c), 3 * (j * n + c) + 3), F * j + 7);
  }
  const s = batch.rootScales[c];
  rig.root.set([...batch.rootPositions.subarray(3 * c, 3 * c + 3), ...batch.rootRotations.subarray(4 * c, 4 * c + 4), s, s, s]);
  batch.constraints.forEach((k, i) => {
    const rc = rig.constraints[i];
    rig.frames.set(k.targets.subarray(3 * c, 3 * c + 3), rc.frameOffset);
    const w = Math.fround(Math.fround(weights[i]) * k.weights[c]);
    if (rc.get('weight') !== w) rc.set({ weight: w });
  });
}
function expectBitForBit(batch, rigs, what) {
  const n = batch.count;
  const out = new Uint32Array(batch.output.buffer, batch.output.byteOffset, batch.output.length);
  rigs.forEach((rig, c) => {
    const mine = new Uint32Array(rig.output.buffer, rig.output.byteOffset, rig.output.length);
    for (let j = 0; j < rig.count; j++) {
      let same = true;
      for (let k = 0; k < 4; k++) same &&= out[4 * (j * n + c) + k] === mine[F * j + 3 + k];
      if (!same) expect(bits(batch.output.subarray(4 * (j * n + c), 4 * (j * n + c) + 4)), `${what}: avatar ${c} joint ${j}`).toEqual(bits(rig.output.subarray(F * j + 3, F * j + 7)));
    }
    const i = batch.constraints.length - 1; // the springs' largest tail distance
    expect(batch.constraints[i].distance[c], `${what}: avatar ${c} distance`).toBe(rig.results[4 * i + 1]);
  });
}

describe('RigBatch with springs: every avatar is its own Rig, bit for bit', () => {
  for (const [name, api] of [['one thread', ikpd], ['two threads', threaded]]) {
    VARIANTS.forEach((make, v) => {
      it(`stack ${v}, ${name}: random per-avatar heads, roots and weights, dt in [0, 0.1] with 0, a toggle and a clear`, () => {
        const count = v === 0 ? 260 : 37; // 260: split over the threads (from 256 avatars)
        const rig = keep(make(api));
        const batch = keep(new api.RigBatch({ rig, count }));
        const rigs = Array.from({ length: count }, () => keep(make(api)));
        const base = rig.constraints.map((k) => k.get('weight'));
        const r = rng(100 + v);
        let enabled = true;
        const frames = v === 0 ? 24 : 40;
        for (let f = 0; f < frames; f++) {
          fillSpringsCrowdFrame(batch, f);
          for (let c = 0; c < count; c++) {
            batch.rootRotations.set([0, Math.sin(0.3 * c + 0.1 * f), 0, Math.cos(0.3 * c + 0.1 * f)], 4 * c);
            if (f % 9 === 0) batch.constraints.forEach((k) => { k.weights[c] = r() < 0.3 ? 1 : r(); });
            batch.constraints.forEach((k) => k.targets.set([r(), 1.6, 2 + r()], 3 * c));
          }
          if (f === frames / 2 || f === (3 * frames) / 4) {
            enabled = !enabled;
            batch.constraints.at(-1).set({ enabled });
            rigs.forEach((x) => x.constraints.at(-1).set({ enabled }));
          }
          if (f === (5 * frames) / 8) {
            batch.clearSmoothing(3, 5);
            rigs.slice(3, 8).forEach((x) => x.clearSmoothing());
          }
          const dt = f === 0 || f === 11 ? 0 : f % 7 === 0 ? 0.1 : Math.fround(0.1 * r());
          batch.update(dt);
          rigs.forEach((x, c) => { feedRig(x, batch, c, base); x.update(dt); });
          expectBitForBit(batch, rigs, `frame ${f}`);
        }
      });
    });
  }

  it('the threaded module gives the single-threaded floats for the crowd of 1,000 avatars', () => {
    const batches = [ikpd, threaded].map((api) => {
      const rig = keep(createSpringsCrowdRig(api));
      return keep(new api.RigBatch({ rig, count: 1000 }));
    });
    for (let f = 0; f < 12; f++) {
      for (const b of batches) {
        fillSpringsCrowdFrame(b, f);
        b.update(f % 3 === 0 ? 1 / 30 : 1 / 144);
      }
      const [a, b] = batches.map((x) => new Uint32Array(x.output.buffer, x.output.byteOffset, x.output.length));
      expect(a.every((v, k) => v === b[k]), `frame ${f}`).toBe(true);
    }
  });
});

describe('RigBatch with springs: errors change nothing', () => {
  it('a bad head rotation, dt, range or setting is named; the next frame is still each avatar\'s Rig', () => {
    const rig = keep(createSpringsCrowdRig(ikpd));
    const batch = keep(new ikpd.RigBatch({ rig, count: 6 }));
    const rigs = Array.from({ length: 6 }, () => keep(createSpringsCrowdRig(ikpd)));
    const step = (f) => {
      fillSpringsCrowdFrame(batch, f);
      batch.update(1 / 60);
      rigs.forEach((x, c) => { feedRig(x, batch, c, [1]); x.update(1 / 60); });
    };
    for (let f = 0; f < 5; f++) step(f);
    const before = batch.output.slice();
    batch.rotations[4 * (2 * 6 + 4) + 3] = NaN;
    expect(() => batch.update(1 / 60)).toThrow(/characters\[4\]\.in\[2\]\.rotation/);
    expect(batch.output).toEqual(before);
    expect(() => batch.update(-1)).toThrow(RangeError);
    expect(() => batch.clearSmoothing(4, 3)).toThrow(/count: must be in \[0, 2\]/);
    expect(() => batch.clearSmoothing(-1)).toThrow(/first/);
    expect(() => batch.constraints[0].set({ dragForce: 2 })).toThrow(/dragForce/);
    expect(() => batch.constraints[0].set({ stiffnes: 1 })).toThrow(/stiffness/);
    expect(batch.output).toEqual(before);
    for (let f = 5; f < 10; f++) step(f); // the same frames as the Rigs: nothing moved
    expectBitForBit(batch, rigs, 'after the errors');
  });
});
