// Batches and results follow the one description of each job
// (cpp/src/<area>/fields.h, cpp/bindings/batch/fields.h): every batch field names the
// single-job or result field it carries, with that field's kind, size and
// default; and results read through their description equal the packed floats
// C++ wrote.
import { describe, expect, it } from 'vitest';
import { bindAllAreas, createModule } from '../../web/src/module.js';
import { OUT } from '../../web/src/fields.js';
import { JOBS as jobs } from '../../web/src/jobs.js';
import { layoutOf } from '../../web/src/batch/batch.js';
import { ikpd } from '../support/setup.js';

const wasm = bindAllAreas(await createModule({ batch: true }));

const SIZES = { vec3: 3, quat: 4, number: 1, boolean: 1, integer: 1, transform: 7, optionalVec3: 4 };
const BATCHES = [
  ['TwoBoneBatch', 'twoBone'],
  ['PseudoThreeBoneBatch', 'pseudoThreeBone'],
  ['AimBatch', 'aim'],
];

describe('batch layouts come from the single-job and result descriptions', () => {
  for (const [Batch, name] of BATCHES) {
    it(`${Batch}: every field is a described field's part, with its default as fill`, () => {
      const job = jobs[name];
      const fields = layoutOf(wasm, wasm[Batch]);
      expect(fields.length).toBeGreaterThan(4);
      const count = 3;
      const batch = new ikpd[Batch](count);
      try {
        for (const f of fields) {
          const layout = f.group === 'out' ? job.result : job;
          expect(['in', 'out'], `${f.group}.${f.name}`).toContain(f.group);
          for (const source of f.sources) {
            const described = layout.byName[source];
            expect(described, `${f.group}.${f.name} → ${source}`).toBeDefined();
            expect(described.kind, `${f.group}.${f.name} → ${source}`).toBe(layout.byName[f.sources[0]].kind);
            expect(f.start + f.components, `${f.group}.${f.name} fits ${source}`).toBeLessThanOrEqual(SIZES[described.kind]);
            // A whole field, a transform's position / rotation, or an optional vector's x, y, z.
            if (f.components !== SIZES[described.kind]) {
              expect(described.kind === 'transform' || (described.kind === 'optionalVec3' && f.components === 3), f.name).toBe(true);
            }
          }
          const described = layout.byName[f.sources[0]];
          const fill = Array.from(layout.defaults.subarray(described.offset + f.start, described.offset + f.start + f.components));
          const view = (f.group === 'out' ? batch.output : batch.input)[f.name];
          expect(view.length).toBe(count * f.components);
          for (let i = 0; i < count; i++) {
            expect(Array.from(view.subarray(i * f.components, (i + 1) * f.components)), `${f.group}.${f.name}[${i}]`).toEqual(fill);
          }
        }
      } finally {
        batch.dispose();
      }
    });
  }

  it('the names JS sees are the described parts', () => {
    const names = (Batch) => layoutOf(wasm, wasm[Batch]).map((f) => `${f.group}.${f.name}=${f.sources.join('|')}@${f.start}`);
    expect(names('TwoBoneBatch')).toEqual([
      'in.rootPosition=root@0', 'in.rootRotation=root@3', 'in.midPosition=mid@0', 'in.midRotation=mid@3',
      'in.endPosition=end@0', 'in.endRotation=end@3', 'in.target=target@0', 'in.pole=pole|poleDirection@0',
      'in.effectorOffset=effectorOffset@0', 'in.weight=weight@0',
      // The root does not move: no out.rootPosition.
      'out.rootRotation=root@3', 'out.midPosition=mid@0', 'out.midRotation=mid@3', 'out.endPosition=end@0',
      'out.endRotation=end@3', 'out.reached=reached@0', 'out.distance=distance@0',
    ]);
    expect(names('AimBatch')).toEqual([
      'in.position=position@0', 'in.rotation=rotation@0', 'in.target=target@0', 'in.pole=pole@0', 'in.weight=weight@0',
      'out.rotation=rotation@0',
    ]);
    expect(names('PdBatch')).toEqual(['state.value=value@0', 'state.velocity=velocity@0', 'in.target=target@0']);
    expect(names('QuatPdBatch')).toEqual(['state.value=value@0', 'state.velocity=velocity@0', 'in.target=target@0']);
  });

  it('PD batches start at rest (value = target, identity quaternions)', () => {
    const scalar = new ikpd.PDBatch(2);
    const quat = new ikpd.QuatPDBatch(2);
    try {
      expect(Array.from(scalar.state.value)).toEqual([0, 0]);
      expect(Array.from(scalar.input.target)).toEqual([0, 0]);
      expect(Array.from(quat.state.value)).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
      expect(Array.from(quat.state.velocity)).toEqual([0, 0, 0, 0, 0, 0]);
      expect(Array.from(quat.input.target)).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
    } finally {
      scalar.dispose();
      quat.dispose();
    }
  });
});

describe('results are read through their description', () => {
  const limb = {
    root: { position: [0, 0, 0], rotation: [0, 0, 0, 1] },
    mid: { position: [1, 0, 0], rotation: [0, 0, 0, 1] },
    end: { position: [2, 0, 0], rotation: [0, 0, 0, 1] },
    target: [0.5, 1.2, 0.3],
  };

  it('sizes and fields', () => {
    expect(jobs.twoBone.result.fields.map((f) => `${f.name}:${f.kind}`)).toEqual(['root:transform', 'mid:transform', 'end:transform', 'reached:boolean', 'distance:number']);
    expect(jobs.twoBone.result.floats).toBe(23);
    expect(jobs.aim.result.floats).toBe(4);
    expect(jobs.pseudoThreeBone.result.floats).toBe(30);
    expect(jobs.chain.result.fields.map((f) => f.name)).toEqual(['reached', 'distance', 'iterations']);
  });

  it('two-bone: the described reader gives the packed floats at the result offsets', () => {
    const s = wasm.HEAPF32.subarray(wasm.scratchPointer() >>> 2);
    jobs.twoBone.pack(limb, s);
    expect(wasm.solveTwoBone(wasm.scratchPointer())).toBe(0);
    const r = jobs.twoBone.result.fill({}, s, OUT);
    const at = (o, n) => Array.from(s.subarray(OUT + o, OUT + o + n));
    expect(r.root).toEqual({ position: at(0, 3), rotation: at(3, 4) });
    expect(r.mid).toEqual({ position: at(7, 3), rotation: at(10, 4) });
    expect(r.end).toEqual({ position: at(14, 3), rotation: at(17, 4) });
    expect(r.reached).toBe(s[OUT + 21] !== 0);
    expect(r.distance).toBe(s[OUT + 22]);
    expect(ikpd.solveTwoBone(limb)).toEqual(r);
    // The reuse path fills the same values into a previous result.
    const previous = ikpd.solveTwoBone({ ...limb, target: [0, 2, 0] });
    expect(ikpd.solveTwoBone(limb, previous)).toEqual(r);
    expect(new ikpd.TwoBoneSolver().solve(limb)).toEqual(r);
  });

  it('aim, pseudo three-bone and chain results keep their shapes', () => {
    const aim = ikpd.solveAim({ position: [0, 0, 0], target: [1, 1, 0] });
    expect(Object.keys(aim)).toEqual(['rotation']);
    const pseudo = ikpd.solvePseudoThreeBone({ ...limb, end: { position: [2, 0, 0] }, tip: { position: [2, -0.5, 0] } });
    expect(Object.keys(pseudo)).toEqual(['root', 'mid', 'end', 'tip', 'reached', 'distance']);
    const chain = ikpd.solveChain({ joints: [limb.root, limb.mid, limb.end], target: [1, 1, 0] });
    expect(Object.keys(chain)).toEqual(['joints', 'reached', 'distance', 'iterations']);
    expect(Number.isInteger(chain.iterations)).toBe(true);
    const solver = new ikpd.ChainSolver(3);
    expect(solver.solve({ joints: [limb.root, limb.mid, limb.end], target: [1, 1, 0] })).toEqual(chain);
    solver.dispose();
  });
});
