// One rule for option names at every entry point, core and ikpd/three: an
// unknown key is a TypeError naming it, with the nearest valid name ("did you
// mean 'poleMode'?"), and nothing changes. They were handled three ways
// (thrown, warned in development, or silently ignored; TwoBoneBatch's
// setOptions({ polemode }) even reset poleMode to 'none').
import { describe, expect, it } from 'vitest';
import { AnimationClip, AnimationMixer } from 'three';
import { ikpd } from '../support/setup.js';
import { bentChain } from '../support/three-rig.js';
import { CLASSES, FUNCTIONS } from '../support/entry-points.js';
import {
  AimIK, AvatarIK, BodyLookAtIK, ChainIK, IKRig, Inertializer, LookAtIK, PseudoThreeBoneIK, TwoBoneIK,
} from '../../web/three/index.js';
import { createHDRUniforms, filmicNode, hdrToneMapping, outputTransformNode } from '../../web/three/hdr/hdr.js';
import { createHumanoid } from '../../demo/lib/humanoid.js';

const at = (path) => path.split('.').reduce((o, k) => o[k], ikpd);
const isOptions = (v) => v !== null && typeof v === 'object' && !Array.isArray(v) && !ArrayBuffer.isView(v);

// `key` misspelled: an 'x' after its first letter (nearer to `key` than to any other name).
const typo = (key) => `${key[0]}x${key.slice(1)}`;
// The error for typo(key) where `key` is valid: names the misspelled key
// (possibly inside a group: 'spine.wxeights'), the entry point and `key`.
const misspelled = (key) => new RegExp(`^(\\w+\\.)?${typo(key)}: unknown option of \\w+(\\.\\w+)? \\(did you mean '${key}'\\?\\); expected one of `);

// Each plain-object argument of `args` with each of its keys misspelled in turn: [index, key, args].
function* misspellings(args) {
  for (const [i, arg] of args.entries()) {
    if (!isOptions(arg)) continue;
    for (const key of Object.keys(arg)) yield [i, key, args.map((a, j) => (j === i ? { ...a, [typo(key)]: a[key] } : a))];
  }
}

describe('an unknown option name is a TypeError naming it and the nearest valid one', () => {
  const functions = FUNCTIONS.filter((spec) => !spec.fillsResult && spec.args().some(isOptions));
  it.each(functions.map((spec) => [spec.name ?? spec.path, spec]))('%s', (_, spec) => {
    const fn = at(spec.path);
    let checked = 0;
    for (const [, key, args] of misspellings(spec.args())) {
      expect(() => fn(...args), `${spec.path} ${typo(key)}`).toThrow(misspelled(key));
      checked++;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it.each(CLASSES.map((spec) => [spec.name, spec]))('new %s(...) and its setOptions/configure', (name, spec) => {
    const Class = ikpd[name];
    const attempt = () => {
      for (const [, key, args] of misspellings(spec.args())) {
        expect(() => new Class(...args), `${name} ${typo(key)}`).toThrow(misspelled(key));
      }
    };
    // Once first: the first native object may grow the WASM heap, whose bookkeeping
    // (a few bytes, depending on where the heap's top is) stays in use.
    attempt();
    const before = ikpd.memoryStats().usedBytes;
    attempt();
    expect(ikpd.memoryStats().usedBytes).toBe(before); // nothing kept by the failed constructions
    for (const method of ['setOptions', 'configure']) {
      if (!spec.calls[method]) continue;
      const object = new Class(...spec.args());
      for (const [, key, args] of misspellings(spec.calls[method]())) {
        expect(() => object[method](...args), `${name}.${method} ${typo(key)}`).toThrow(misspelled(key));
      }
      object.dispose();
    }
  });

  it("TwoBoneBatch.setOptions({ polemode: 'point' }) throws and keeps poleMode (it reset it to 'none')", () => {
    const batch = new ikpd.TwoBoneBatch(1, { poleMode: 'point' });
    batch.input.midPosition.set([1, 0, 0]);
    batch.input.endPosition.set([2, 0, 0]);
    batch.input.target.set([1, 1, 0]);
    batch.input.pole.set([0, 0, 5]);
    const solved = () => Array.from(batch.solve().output.midRotation);
    const withPole = solved();
    expect(() => batch.setOptions({ polemode: 'point' })).toThrow(/^polemode: unknown option of TwoBoneBatch \(did you mean 'poleMode'\?\)/);
    expect(solved()).toEqual(withPole);
    batch.dispose();
  });

  it('names keys inside option groups and keys that are not identifiers', () => {
    expect(() => new ikpd.BodyLookAt({ spine: { wieghts: [1, 1, 1, 1] } })).toThrow(/^spine\.wieghts: unknown option of BodyLookAt \(did you mean 'weights'\?\)/);
    expect(() => new ikpd.BodyLookAt({ armReaction: { chset: 1 } })).toThrow(/^armReaction\.chset: unknown option of BodyLookAt \(did you mean 'chest'\?\)/);
    expect(() => ikpd.solveAim({ position: [0, 0, 0], target: [0, 1, 0], 'up ': [0, 0, 1] })).toThrow(/^options: unknown option "up " of solveAim \(did you mean 'up'\?\)/);
    expect(() => ikpd.hdr.outputTransform([1, 1, 1], { PaperWhite: 200 })).toThrow(/^PaperWhite: unknown option of outputTransform \(did you mean 'paperWhite'\?\)/);
    expect(() => ikpd.solveChain({ joints: [{ position: [0, 0, 0] }, { position: [0, 1, 0] }], target: [0, 1, 0], zzz: 1 })).toThrow(/^zzz: unknown option of solveChain; expected one of /);
    // A key given as undefined is the same as a key not given.
    expect(ikpd.solveAim({ position: [0, 0, 0], target: [0, 1, 0], upp: undefined }).rotation).toHaveLength(4);
  });

  it('init() rejects an unknown option', async () => {
    const { init } = await import('../../web/index.js');
    // Checked before init() looks for a module already loaded.
    await expect(init({ wsam: 'x' })).rejects.toThrow(/^wsam: unknown option of init \(did you mean 'wasm'\?\)/);
    await expect(init({ batches: true })).rejects.toThrow(/^batches: unknown option of init \(did you mean 'batch'\?\)/);
    expect(await init()).toBe(ikpd);
  });
});

describe('ikpd/three helpers follow the same rule', () => {
  const chain = bentChain;
  const HELPERS = [
    ['TwoBoneIK', (o) => new TwoBoneIK(ikpd, chain(3), o), { target: [0, 1, 1], pole: [0, 0, 1], weight: 1, maxStretch: 1 }],
    ['PseudoThreeBoneIK', (o) => new PseudoThreeBoneIK(ikpd, chain(4), o), { target: [0, 1, 1], blend: 0.5, variant: 'relative', endLimit: 1 }],
    ['AimIK', (o) => new AimIK(ikpd, chain(2)[0], o), { target: [0, 1, 1], method: 'shortestArc', weight: 1 }],
    ['ChainIK', (o) => new ChainIK(ikpd, chain(4), o), { target: [0, 1, 1], iterations: 10, weight: 1 }],
    ['LookAtIK', (o) => new LookAtIK(ikpd, chain(3), o), { target: [0, 1, 1], enabled: true, weight: 1 }],
    ['BodyLookAtIK', (o) => new BodyLookAtIK(ikpd, createHumanoid({ names: 'mixamo' }).root, o), { target: [0, 1, 1], footLock: true, facing: '+z' }],
    ['AvatarIK', (o) => new AvatarIK(ikpd, createHumanoid({ names: 'mixamo' }).root, o), { head: null, leftHandWeight: 0.5, pelvisFollow: 0.3, humanoid: 'auto' }],
    ['IKRig', (o) => new IKRig(ikpd, createHumanoid({ names: 'mixamo' }).root, o), { humanoid: 'auto', facing: '+z', up: '+y' }],
    ['IKRig.add', (o) => {
      const bones = chain(3);
      const rig = new IKRig(ikpd, bones);
      try { rig.add('twoBone', { bones, ...o }); } finally { rig.dispose(); }
    }, { target: [0, 1, 1], weight: 1, settleTime: 0.1 }],
    ['Inertializer', (o) => new Inertializer(ikpd, chain(3)[0], o), { halfLife: 0.2 }],
    ['Inertializer.transition', (o) => {
      const mixer = new AnimationMixer(chain(3)[0]);
      const inertia = new Inertializer(ikpd, mixer);
      try { inertia.transition(mixer.clipAction(new AnimationClip('still', 1, [])), o); } finally { inertia.dispose(); }
    }, { halfLife: 0.2 }],
    ['filmicNode', (o) => filmicNode(1, o), { a: 3, e: 0.1 }],
    ['outputTransformNode', (o) => outputTransformNode(1, o), { peak: 1000, encoding: 'pq' }],
    ['createHDRUniforms', (o) => createHDRUniforms(o), { paperWhite: 200, saturation: 0.5 }],
    ['hdrToneMapping', (o) => hdrToneMapping(o), { paperWhite: 200, peak: 1000 }],
    ['hdrToneMapping (flags)', (o) => hdrToneMapping(undefined, o), { hdr: false }],
  ];

  it.each(HELPERS)('%s', (_, make, valid) => {
    make(valid)?.dispose?.();
    for (const [, key, [options]] of misspellings([valid])) expect(() => make(options), typo(key)).toThrow(misspelled(key));
  });
});
