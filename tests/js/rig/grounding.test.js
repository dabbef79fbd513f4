// ikpd.Rig's grounding constraint (docs/rig/grounding.md) from JS: feet on raised,
// sloped and stepped ground at 30, 60 and 240 Hz; rig.grounds / rig.probes /
// rig.probe() and the handle's offsets; errors name the option (legs[1][2],
// grounds[1].point) and change nothing; unknown options follow the one rule.
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { biped } from '../../support/biped.js';
import { add, conj, quatMul, quatNormalize, rotate, scale, sub } from '../../support/ik-math.js';

const F = 10;

function fk(parents, locals) {
  const world = [];
  for (let j = 0; j < parents.length; j++) {
    const l = Array.from(locals.slice(F * j, F * j + F));
    const r = quatNormalize(l.slice(3, 7));
    if (parents[j] < 0) { world.push({ position: l.slice(0, 3), rotation: r }); continue; }
    const p = world[parents[j]];
    world.push({ position: add(p.position, rotate(p.rotation, l.slice(0, 3))), rotation: quatNormalize(quatMul(p.rotation, r)) });
  }
  return world;
}

const GROUNDS = {
  flat: { height: () => 0.05, normal: () => [0, 1, 0] },
  slope: { height: (x, z) => Math.tan(0.349) * z, normal: () => { const t = Math.tan(0.349), n = Math.hypot(1, t); return [0, 1 / n, -t / n]; } },
  step: { height: (x) => (x >= 0 ? 0.15 : 0), normal: () => [0, 1, 0] },
};

// Probe, query the ground under each sole, update.
function frame(rig, ground, dt) {
  rig.probe();
  const probes = rig.probes, grounds = rig.grounds;
  for (let i = 0; i < probes.length / 6; i++) {
    const x = probes[6 * i], z = probes[6 * i + 2];
    grounds.set([x, ground.height(x, z), z, ...ground.normal(x, z), 1, -1, -1], 9 * i);
  }
  rig.update(dt);
}

function soleHeights(rig, character, ground, toes) {
  const before = fk(character.parents, rig.input), after = fk(character.parents, rig.output);
  return character.legs.map((leg) => {
    const ankle = leg[2], effector = leg[toes ? 3 : 2];
    const turn = quatMul(after[ankle].rotation, conj(before[ankle].rotation));
    const p = sub(after[effector].position, scale(rotate(turn, [0, 1, 0]), toes ? 0.03 : 0.1));
    const n = ground.normal(p[0], p[2]);
    const d = sub(p, [p[0], ground.height(p[0], p[2]), p[2]]);
    return d[0] * n[0] + d[1] * n[1] + d[2] * n[2];
  });
}

describe('Rig grounding', () => {
  for (const hz of [30, 60, 240]) {
    for (const [name, ground] of Object.entries(GROUNDS)) {
      for (const toes of [false, true]) {
        it(`${name} ground at ${hz} Hz (${toes ? 'toe' : 'ankle'} legs): soles within 1 mm`, () => {
          const character = biped();
          const rig = new ikpd.Rig({ parents: character.parents, rest: character.rest });
          try {
            const c = rig.add('grounding', { pelvis: 1, legs: character.legs.map((l) => l.slice(0, toes ? 4 : 3)) });
            expect(c.legCount).toBe(2);
            expect(c.groundOffset).toBe(0);
            expect(c.probeOffset).toBe(0);
            expect(rig.grounds.length).toBe(18);
            expect(rig.probes.length).toBe(12);
            for (let f = 0; f < hz; f++) frame(rig, ground, 1 / hz);
            for (const h of soleHeights(rig, character, ground, toes)) expect(Math.abs(h)).toBeLessThanOrEqual(1e-3);
            expect(rig.results[c.resultOffset + 2]).toBe(2); // both feet planted
          } finally {
            rig.dispose();
          }
        });
      }
    }
  }

  it('probes: the animated sole (ankle minus its rest height) and hip, in world space under the root', () => {
    const character = biped();
    const rig = new ikpd.Rig({ parents: character.parents, rest: character.rest });
    try {
      rig.add('twoBone', { joints: [3, 4, 5] });
      const c = rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5], [7, 8, 9]], soleOffsets: [0.08, null] });
      expect(c.groundOffset).toBe(0);
      rig.root.set([1, 2, 3, 0, 0, 0, 1, 2, 2, 2]);
      rig.probe();
      const p = Array.from(rig.probes, (v) => Math.round(v * 1e5) / 1e5);
      expect(p).toEqual([1.2, 2.04, 3, 1.2, 3.9, 3, 0.8, 2, 3, 0.8, 3.9, 3]);
    } finally {
      rig.dispose();
    }
  });

  it('probe() and update() allocate nothing in WASM; the views stay the same objects; they survive memory growth', () => {
    const character = biped();
    const rig = new ikpd.Rig({ parents: character.parents, rest: character.rest });
    try {
      const c = rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5, 6], [7, 8, 9, 10]] });
      frame(rig, GROUNDS.slope, 1 / 60);
      const grounds = rig.grounds, probes = rig.probes;
      const before = ikpd.memoryStats().usedBytes;
      for (let f = 0; f < 500; f++) frame(rig, GROUNDS.slope, 1 / 60);
      expect(ikpd.memoryStats().usedBytes).toBe(before);
      expect(rig.grounds).toBe(grounds);
      expect(rig.probes).toBe(probes);
      const sole = rig.probes[c.probeOffset + 1];
      const heap = ikpd.memoryStats().heapBytes;
      const big = [];
      while (ikpd.memoryStats().heapBytes === heap) big.push(ikpd.hdr.createBuffer(1 << 20, 4));
      expect(grounds.length).toBe(0); // detached by the growth
      expect(rig.probes[c.probeOffset + 1]).toBe(sole);
      expect(rig.grounds.length).toBe(18);
      frame(rig, GROUNDS.slope, 1 / 60);
      for (const b of big) b.dispose();
    } finally {
      rig.dispose();
    }
  });

  it('defaults, kinds and options', () => {
    expect(ikpd.Rig.kinds).toContain('grounding');
    // The described options' defaults are the C++ floats (cpp/src/rig/fields.h).
    expect(ikpd.Rig.defaults.grounding).toMatchObject({ settleTime: 0.1, maxFootPitch: Math.fround(0.7), maxFootRoll: Math.fround(0.5), plantSpeed: Math.fround(0.2), maxPelvisDrop: null, plantHeight: null, chest: null });
    expect(ikpd.Rig.options.grounding).toContain('legs');
    expect(ikpd.Rig.options.grounding).not.toContain('joints');
  });

  it('bad input names the option and changes nothing', () => {
    const character = biped();
    const rig = new ikpd.Rig({ parents: character.parents, rest: character.rest });
    try {
      expect(() => rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5], [7, 8, 5]] })).toThrow(/legs\[1\]\[2\]: must be a descendant of legs\[1\]\[1\]/);
      expect(() => rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5], [7, 8]] })).toThrow(/legs\[1\]: needs 3 or 4 joints/);
      expect(() => rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5], [7, 8, 'x']] })).toThrow(/legs\[1\]\[2\]: expected a joint index/);
      expect(() => rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5]] })).toThrow(/legs: expected 2 or 4 legs/);
      expect(() => rig.add('grounding', { pelvis: 4, legs: [[3, 4, 5], [7, 8, 9]] })).toThrow(/legs\[0\]\[0\]: must be a descendant of the pelvis/);
      expect(() => rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5], [7, 8, 9]], groundHeight: 0.2 })).toThrow(/legs\[0\]: soleOffset needed/);
      expect(() => rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5], [7, 8, 9]], soleOffsets: [0.1, -1] })).toThrow(/soleOffsets\[1\]/);
      expect(() => rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5], [7, 8, 9]], maxFootPich: 1 })).toThrow(/maxFootPitch/);
      expect(() => rig.add('grounding', { joints: [1], legs: [[3, 4, 5], [7, 8, 9]] })).toThrow(TypeError);
      expect(() => rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5], [7, 8, 9]], maxPelvisDrop: -1 })).toThrow(/maxPelvisDrop/);
      // One rule (docs/rig/rig.md, "Errors"): constraints[i]. and the option's own name, the core's checks of the
      // pelvis and chest (its joints[0] and joints[1]) included.
      expect(() => rig.add('grounding', { pelvis: 99, legs: [[3, 4, 5], [7, 8, 9]] })).toThrow(/^constraints\[0\]\.pelvis: must be a joint index/);
      expect(() => rig.add('grounding', { pelvis: 1, chest: 99, legs: [[3, 4, 5], [7, 8, 9]] })).toThrow(/^constraints\[0\]\.chest: /);
      expect(() => rig.add('grounding', { pelvis: 'hips', legs: [[3, 4, 5], [7, 8, 9]] })).toThrow(/^constraints\[0\]\.pelvis: expected /);
      expect(() => rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5], [7, 8, 9]], maxPelvisDrop: -1 })).toThrow(/^constraints\[0\]\.maxPelvisDrop: /);
      expect(() => rig.add('grounding', { legs: [[3, 4, 5], [7, 8, 9]] })).toThrow(new TypeError('constraints[0].pelvis: required (a joint index)'));
      expect(rig.constraints.length).toBe(0);
      const c = rig.add('grounding', { pelvis: 1, legs: [[3, 4, 5], [7, 8, 9]] });
      expect(() => c.set({ legs: [[3, 4, 5], [7, 8, 9], [3, 4, 5], [7, 8, 9]] })).toThrow(/legs/);
      expect(() => c.set({ soften: 2 })).toThrow(/soften/);
      expect(c.get('soften')).toBe(Math.fround(0.02));
      for (let f = 0; f < 10; f++) frame(rig, GROUNDS.step, 1 / 60);
      const output = rig.output.slice();
      rig.grounds[9 + 8] = 1.5; // an edge past the step's end
      expect(() => rig.update(1 / 60)).toThrow(/grounds\[1\]\.edge: must be finite and <= 1/);
      rig.grounds[9 + 8] = -1;
      rig.grounds[9 + 1] = NaN;
      expect(() => rig.update(1 / 60)).toThrow(/grounds\[1\]\.point: must be finite/);
      expect(rig.output).toEqual(output);
      rig.grounds[9 + 6] = 0; // no hit: the point is not read
      rig.update(1 / 60);
    } finally {
      rig.dispose();
    }
  });
});
