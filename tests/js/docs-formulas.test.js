// The formulas, reference values and tables the docs/ pages state, evaluated
// against the implementation (the WASM build), so a page cannot drift from
// the code: tables are parsed from the page itself where they hold numbers.
// docs/hdr/hdr.md said the 'display' input was tone-mapped again (a white UI
// pixel at peak); the code applies only the output conversion.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docsPages } from '../support/docs-pages.js';
import { ikpd } from '../support/setup.js';

const page = (name) => readFileSync(new URL(`../../docs/${name}`, import.meta.url), 'utf8');
const { hdr } = ikpd;

// Rows of the markdown table whose header row starts with `| first |`: arrays of cell texts.
function table(text, first) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${first} |`));
  expect(start, `a table starting with "| ${first} |"`).toBeGreaterThanOrEqual(0);
  const rows = [];
  for (let i = start + 2; i < lines.length && lines[i].startsWith('|'); i++) {
    rows.push(lines[i].split('|').slice(1, -1).map((c) => c.trim()));
  }
  return rows;
}
const numberIn = (text) => Number(/-?\d+(\.\d+)?(e-?\d+)?/.exec(text.replaceAll('`', ''))[0]);
const relClose = (actual, expected, rel, what) =>
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(rel * Math.max(1, Math.abs(expected)));

// Which pages state formulas or reference numbers, and where they are checked:
// this file (here) or the native tests named. A new docs page must be added.
// Keys are paths under docs/: an area's pages sit in its folder (ik/, rig/, pd/,
// hdr/, batch/), the cross-cutting ones at the root.
const PAGES = {
  'hdr/hdr.md': 'here',
  'pd/pd.md': 'here',
  'pd/inertializer.md': 'tests/native/pd/inertializer_test.cc',
  'ik/two-bone.md': 'tests/native/ik/two_bone_test.cc',
  'ik/aim.md': 'tests/native/ik/aim_test.cc',
  'ik/pseudo-three-bone.md': 'tests/native/ik/pseudo_three_bone_test.cc',
  'ik/chains.md': 'tests/native/ik/chain_reach_property_test.cc',
  'ik/tentacle.md': 'tests/native/ik/tentacle_test.cc',
  'rig/look-at.md': 'tests/native/rig/look_at_test.cc',
  'rig/avatar.md': 'tests/native/rig/avatar_test.cc',
  'rig/body-look-at.md': 'tests/native/rig/body_look_at_test.cc',
  'rig/grounding.md': 'tests/native/rig/grounding_test.cc',
  'architecture.md': 'none (no formulas)',
  'README.md': 'none (an index)',
  'rig/rig.md': 'tests/native/rig/rig_behavior_test.cc',
  'rig/twist.md': 'tests/native/rig/twist_test.cc',
  'rig/springs.md': 'tests/native/rig/springs_test.cc',
  'rig/rig-batch.md': 'tests/native/rig/rig_batch_test.cc',
  'loading.md': 'none (no formulas)',
  'three.md': 'tests/js/three-helper-rigs.test.js',
  'demo.md': 'none (no formulas)',
  'batch/batches.md': 'tests/native/batch/two_bone_batch_test.cc',
  'cpp.md': 'none (no formulas)',
  'testing.md': 'none (no formulas)',
  'performance.md': 'none (measurements: npm run bench)',
  'ik/prepared-solvers.md': 'tests/js/ik/solvers.test.js',
};

it('every docs page is listed with the test that checks its formulas', () => {
  expect(docsPages().sort()).toEqual(Object.keys(PAGES).sort());
  for (const where of Object.values(PAGES)) {
    if (where.startsWith('tests/')) expect(() => readFileSync(new URL(`../../${where}`, import.meta.url))).not.toThrow();
  }
});

describe('docs/hdr/hdr.md', () => {
  const text = page('hdr/hdr.md');

  it('the SDR filmic coefficients, its limit a/c and where it passes 1.0', () => {
    const m = /SDR coefficients: a = ([\d.]+), b = ([\d.]+), c = ([\d.]+), d = ([\d.]+), e = ([\d.]+)/.exec(text);
    const [a, b, c, d, e] = m.slice(1).map(Number);
    expect(hdr.SDR_FILMIC).toEqual({ a, b, c, d, e });
    for (const x of [0.1, 0.5, 1, 3]) relClose(hdr.filmic(x), (x * (a * x + b)) / (x * (c * x + d) + e), 1e-6, `filmic(${x})`);
    relClose(hdr.filmic(1e6), 1.2346, 1e-4, 'limit a/c');
    relClose(hdr.filmic(1.19), 1, 0.01, 'filmic passes 1.0 at x ≈ 1.19');
    expect(hdr.filmic(-1)).toBe(0);
  });

  it('the HDR variant converges to its peak; the production tone map keeps darks and lands SDR white at maxNit', () => {
    relClose(hdr.hdrCurve(1e7, 4), 4, 1e-4, 'hdrCurve limit');
    relClose(0.5 ** 22, 2.4e-7, 0.02, '0.5^22');
    relClose(hdr.toneMapHDR(1, 4), 4 ** (1 / 2.2), 1e-5, 'SDR white lands at maxNit');
    const x = 0.4;
    const lin = x ** 2.2;
    relClose(hdr.toneMapHDR(x, 4), (lin * (1 + 3 * Math.min(1, lin ** 10))) ** (1 / 2.2), 1e-5, 'toneMapHDR formula');
  });

  it('gamma is the odd 2.2 power', () => {
    relClose(hdr.gammaEncode(0.25), 0.25 ** (1 / 2.2), 1e-6, 'gammaEncode');
    relClose(hdr.gammaDecode(-0.5), -(0.5 ** 2.2), 1e-6, 'gammaDecode of a negative');
  });

  it('the Rec.709 → Rec.2020 matrix rows as printed', () => {
    const block = /```\n(\[0\.6[^`]*)```/.exec(text)[1];
    const rows = block.trim().split('\n').map((r) => r.replace(/[[\]]/g, '').trim().split(/\s+/).map(Number));
    for (let j = 0; j < 3; j++) {
      const column = hdr.rec709ToRec2020([0, 1, 2].map((k) => (k === j ? 1 : 0)));
      for (let i = 0; i < 3; i++) relClose(column[i], rows[i][j], 1e-6, `M[${i}][${j}]`);
    }
  });

  it('the PQ table', () => {
    const rows = table(text, 'nits');
    expect(rows.length).toBe(7);
    for (const [nits, y, e] of rows) {
      expect(numberIn(y)).toBeCloseTo(numberIn(nits) / 10000, 12);
      relClose(hdr.linearToPQ(numberIn(y)), numberIn(e), 2e-6, `linearToPQ(${y})`);
    }
  });

  it("the output transform's reference values, 'scene' and 'display' input", () => {
    const rows = table(text, 'Input');
    expect(rows.length).toBeGreaterThanOrEqual(5);
    for (const [input, pq, extended] of rows) {
      const [kind, value] = /^(scene|display) ([\d.]+)/.exec(input).slice(1);
      const rgb = [Number(value), Number(value), Number(value)];
      relClose(hdr.outputTransform(rgb, { input: kind, encoding: 'extended' })[0], numberIn(extended), 2e-3, `${input} extended`);
      const nits = hdr.pqToLinear(hdr.outputTransform(rgb, { input: kind, encoding: 'pq' })[0]) * 10000;
      relClose(nits, numberIn(pq.replace('≈', '')), 0.01, `${input} pq nits`);
    }
  });

  it("'display' input: gamma decode only, clamped to [0, peak/paperWhite] (no tone map)", () => {
    for (const x of [0, 0.2, 0.5, 0.9, 1, 1.5, 2, 5]) {
      const expected = Math.min(Math.max(x, 0) ** 2.2, 1000 / 250);
      relClose(hdr.outputTransform([x, x, x], { input: 'display', encoding: 'extended' })[0], expected, 1e-5, `display ${x}`);
    }
    relClose(hdr.outputTransform([1, 1, 1], { input: 'display', encoding: 'extended', peak: 600, paperWhite: 200 })[0], 1, 1e-6, 'white UI at paper white');
    relClose(hdr.outputTransform([-1, -1, -1], { input: 'display', encoding: 'extended' })[0], 0, 0, 'clamped at 0');
  });

  it('paper white and PQ of 0', () => {
    relClose(hdr.linearToPQ(0), 7.30956e-7, 1e-4, 'PQ(0) = c1^m2');
    relClose(hdr.normalizePaperWhite(2, 250), 2 * 250 / 10000, 1e-6, 'Y = value·paperWhite/10000');
  });
});

describe('docs/pd/pd.md', () => {
  const text = page('pd/pd.md');
  const TAU = 2 * Math.PI;

  it('the gain formulas of the table', () => {
    const rows = table(text, 'Function');
    expect(rows.map((r) => /`(\w+)/.exec(r[0])[1])).toEqual(['gainsFromSettleTime', 'gainsFromSmoothTime', 'gainsFromHalfLife', 'gainsFromSpring']);
    const close = ({ kp, kd }, expected, what) => {
      relClose(kp, expected.kp, 1e-9, `${what} kp`);
      relClose(kd, expected.kd, 1e-9, `${what} kd`);
    };
    close(ikpd.gainsFromSettleTime(0.5), { kp: (TAU / 0.5) ** 2, kd: 2 * TAU / 0.5 }, 'settle time');
    close(ikpd.gainsFromSettleTime(0.5, 0.7), { kp: (TAU / 0.5) ** 2, kd: 2 * 0.7 * TAU / 0.5 }, 'settle time, ζ');
    close(ikpd.gainsFromSmoothTime(0.3), { kp: (2 / 0.3) ** 2, kd: 2 * (2 / 0.3) }, 'smooth time');
    close(ikpd.gainsFromHalfLife(0.2), { kp: (1.67834699 / 0.2) ** 2, kd: 2 * 1.67834699 / 0.2 }, 'half-life');
    close(ikpd.gainsFromSpring({ stiffness: 170, damping: 26, mass: 2 }), { kp: 85, kd: 13 }, 'spring');
  });

  it('settle time, presets, half-life constant and the controllers\' defaults', () => {
    relClose((1 + TAU) * Math.exp(-TAU), 0.0136, 0.01, '(1 + 2π)e^{−2π} ≈ 1.36 %');
    relClose(TAU / Math.sqrt(40), 0.99, 0.01, 'kp = 40 gives T ≈ 0.99 s');
    const s = 1.67834699;
    relClose((1 + s) * Math.exp(-s), 0.5, 1e-8, 'half-life constant');
    const kp = (TAU / 0.4) ** 2;
    relClose(ikpd.gainsFromSettleTime(0.4, 'responsive').kd, Math.sqrt(2 * kp), 1e-9, "'responsive' kd = √(2kp)");
    relClose(ikpd.gainsFromSettleTime(0.4, 'over').kd, 2 * 1.5 * Math.sqrt(kp), 1e-9, "'over' ζ = 1.5");
    const pd = new ikpd.PD();
    relClose(pd.kp, 4 * Math.PI ** 2, 1e-9, 'default kp = 4π²');
    relClose(pd.kd, 4 * Math.PI, 1e-9, 'default kd = 4π');
    pd.dispose();
  });

  it('the closed forms: critical, under- and overdamped', () => {
    const e0 = 1.5, v0 = -0.7, g = 0.25;
    for (const [name, kp, kd] of [['critical', 16, 8], ['under', 16, 3], ['over', 16, 20]]) {
      const pd = new ikpd.PD({ kp, kd });
      pd.reset(g + e0, v0);
      pd.update(0, g);
      const a = kd / 2;
      for (const t of [0.1, 0.5, 1.3]) {
        let x, v;
        if (name === 'critical') {
          const c = v0 + a * e0;
          x = g + (e0 + c * t) * Math.exp(-a * t);
          v = (v0 - a * c * t) * Math.exp(-a * t);
        } else if (name === 'under') {
          const wd = 0.5 * Math.sqrt(4 * kp - kd * kd);
          const B = (v0 + a * e0) / wd;
          x = g + Math.exp(-a * t) * (e0 * Math.cos(wd * t) + B * Math.sin(wd * t));
          v = Math.exp(-a * t) * (v0 * Math.cos(wd * t) - ((kp * e0 + a * v0) / wd) * Math.sin(wd * t));
        } else {
          const r = 0.5 * Math.sqrt(kd * kd - 4 * kp);
          const s2 = -a - r, s1 = kp / s2;
          const c2 = (v0 - s1 * e0) / (s2 - s1), c1 = e0 - c2;
          x = g + c1 * Math.exp(s1 * t) + c2 * Math.exp(s2 * t);
          v = c1 * s1 * Math.exp(s1 * t) + c2 * s2 * Math.exp(s2 * t);
        }
        const state = pd.stateAt(t);
        relClose(state.value, x, 1e-9, `${name} x(${t})`);
        relClose(state.velocity, v, 1e-9, `${name} v(${t})`);
      }
      pd.dispose();
    }
  });

  it('overshoot 4.3 % at ζ = 1/√2', () => {
    const zeta = 1 / Math.SQRT2;
    relClose(Math.exp((-Math.PI * zeta) / Math.sqrt(1 - zeta * zeta)), 0.043, 0.01, 'overshoot formula');
    const pd = new ikpd.PD({ settleTime: 1, damping: 'responsive', value: 0 });
    let peak = 0;
    for (let i = 0; i < 200; i++) peak = Math.max(peak, pd.update(1 / 100, 1));
    relClose(peak - 1, 0.0432, 0.01, 'simulated overshoot');
    pd.dispose();
  });

  it('the largest stable steps of the reference table, and the stability conditions', () => {
    const rows = table(text, 'Gains');
    expect(rows.length).toBe(2);
    for (const [gains, explicit, stable] of rows) {
      const T = numberIn(/settle time ([\d.]+) s/.exec(gains)[1]);
      const { kp, kd } = ikpd.gainsFromSettleTime(T);
      relClose(kp, numberIn(/kp ≈ ([\d.]+)/.exec(gains)[1]), 1e-3, `kp for ${T} s`);
      relClose(kd, numberIn(/kd ≈ ([\d.]+)/.exec(gains)[1]), 1e-3, `kd for ${T} s`);
      relClose(ikpd.checkStability({ kp, kd, dt: 0.01, integrator: 'explicit' }).maxStableDt, numberIn(explicit), 1e-3, `explicit ${T} s`);
      relClose(ikpd.checkStability({ kp, kd, dt: 0.01, integrator: 'stable' }).maxStableDt, numberIn(stable), 1e-3, `stable ${T} s`);
      // stable PD: h < (kd + √(kd² + 12kp)) / (3kp)
      relClose((kd + Math.sqrt(kd * kd + 12 * kp)) / (3 * kp), numberIn(stable), 1e-3, `stable-PD bound ${T} s`);
    }
    const kp = 1e4, h = 1 / 30, kd = 1.01 * kp * h;
    relClose(3 * kp * h * h, 33.3, 2e-3, '3kp·h²');
    relClose(4 + 2 * kd * h, 26.4, 2e-3, '4 + 2kd·h');
    expect(ikpd.checkStability({ kp, kd, dt: h, integrator: 'stable' }).stable).toBe(false);
    expect(ikpd.checkStability({ kp: 438.6, kd: 41.89, dt: 1 / 30, integrator: 'explicit' }).stable).toBe(true); // "stable at 30 Hz"
    expect(ikpd.checkStability({ kp: 438.6, kd: 41.89, dt: 1 / 20, integrator: 'explicit' }).stable).toBe(false); // "diverges at 20 Hz"
  });
});
