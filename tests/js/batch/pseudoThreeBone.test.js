// PseudoThreeBoneBatch gives solvePseudoThreeBone's results item by item (1e-6).
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { rng } from '../../../bench/problems.js';

const vec3 = (f, i) => [f[3 * i], f[3 * i + 1], f[3 * i + 2]];
const quat = (f, i) => [f[4 * i], f[4 * i + 1], f[4 * i + 2], f[4 * i + 3]];

function expectClose(actual, expected, what) {
  for (let k = 0; k < actual.length; k++) {
    if (!(Math.abs(actual[k] - expected[k]) <= 1e-6)) throw new Error(`${what}[${k}]: batch ${actual[k]} vs single ${expected[k]}`);
  }
}

describe('PseudoThreeBoneBatch', () => {
  const cases = [{}, { poleMode: 'point', variant: 'followMid', soften: 0.1 }, { poleMode: 'direction', endLimit: 0.4, forward: [0, 1, 0], bendAxis: [1, 0, 0] }];
  it.each(cases.map((c) => [JSON.stringify(c), c]))('matches solvePseudoThreeBone with %s', (_, options) => {
    const n = 300;
    const r = rng(21);
    const batch = new ikpd.PseudoThreeBoneBatch(n, options);
    try {
      const input = batch.input;
      for (const name of ['rootPosition', 'midPosition', 'endPosition', 'tipPosition', 'target', 'pole', 'rootRotation', 'midRotation', 'endRotation', 'tipRotation']) {
        const field = input[name];
        for (let k = 0; k < field.length; k++) field[k] = r.uniform(-2, 2);
      }
      for (let i = 0; i < n; i++) {
        input.weight[i] = i % 4 === 0 ? 1 : r.next();
        input.blend[i] = i % 5 === 0 ? 1 : i % 5 === 1 ? 0 : r.next();
      }
      batch.solve();
      const { poleMode = 'none', ...shared } = options;
      const out = batch.output;
      for (let i = 0; i < n; i++) {
        const joint = (name) => ({ position: vec3(input[`${name}Position`], i), rotation: quat(input[`${name}Rotation`], i) });
        const call = { ...shared, root: joint('root'), mid: joint('mid'), end: joint('end'), tip: joint('tip'), target: vec3(input.target, i), weight: input.weight[i], blend: input.blend[i] };
        if (poleMode === 'point') call.pole = vec3(input.pole, i);
        if (poleMode === 'direction') call.poleDirection = vec3(input.pole, i);
        const s = ikpd.solvePseudoThreeBone(call);
        expectClose(quat(out.rootRotation, i), s.root.rotation, `item ${i} root.rotation`);
        expectClose(vec3(out.midPosition, i), s.mid.position, `item ${i} mid.position`);
        expectClose(quat(out.midRotation, i), s.mid.rotation, `item ${i} mid.rotation`);
        expectClose(vec3(out.endPosition, i), s.end.position, `item ${i} end.position`);
        expectClose(quat(out.endRotation, i), s.end.rotation, `item ${i} end.rotation`);
        expectClose(vec3(out.tipPosition, i), s.tip.position, `item ${i} tip.position`);
        expectClose(quat(out.tipRotation, i), s.tip.rotation, `item ${i} tip.rotation`);
        expect(out.reached[i]).toBe(s.reached ? 1 : 0);
        expectClose([out.distance[i]], [s.distance], `item ${i} distance`);
      }
    } finally {
      batch.dispose();
    }
  });

  it('validates options and names the first invalid item', () => {
    expect(() => new ikpd.PseudoThreeBoneBatch(2, { variant: 'x' })).toThrow(/^variant: /);
    expect(() => new ikpd.PseudoThreeBoneBatch(2, { endLimit: 5 })).toThrow(/^endLimit: /);
    const batch = new ikpd.PseudoThreeBoneBatch(3);
    batch.input.midPosition.fill(1);
    batch.input.blend[2] = 3;
    batch.output.distance.fill(-1);
    expect(() => batch.solve()).toThrow(/^items\[2\]\.blend: /);
    expect(Array.from(batch.output.distance)).toEqual([-1, -1, -1]);
    batch.dispose();
  });
});
