// The typings state what C++ describes: every field of each description
// (cpp/src/<area>/fields.h, written to web/src/<area>/described.js and read by
// web/src/fields.js) is a property of its options interfaces in web/types,
// required exactly when it is a required input, the `@default` in its doc
// comment is the real default, and an enum's type lists its C++ names; and
// every `@default` of the ikpd/three helpers' options (web/three/**/*.d.ts)
// is the helper's real default.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { JOBS as jobs } from '../../web/src/jobs.js';
import { AimIK, BodyLookAtIK, ChainIK, LookAtIK, PseudoThreeBoneIK, TwoBoneIK } from '../../web/three/index.js';
import { createHumanoid } from '../../demo/lib/humanoid.js';
import { ikpd } from '../support/setup.js';
import { bentChain } from '../support/three-rig.js';

const types = (file) => readFileSync(new URL(`../../web/types/${file}`, import.meta.url), 'utf8');
// Description → the typings file and the interfaces that together declare its fields.
const CASES = [
  { job: 'twoBone', source: types('ik/twoBone.d.ts'), interfaces: ['TwoBoneOptions'] },
  { job: 'aim', source: types('ik/aim.d.ts'), interfaces: ['AimOptions'] },
  { job: 'pd', source: types('pd/pd.d.ts'), interfaces: ['PdControllerOptions', 'RotationPdOptions', 'QuatPDOptions'] },
  { job: 'lookAt', source: types('rig/lookAt.d.ts'), interfaces: ['LookAtOptions'] },
  // A rig constraint's common settings: the axes are typed by the kinds that take them.
  { job: 'common', source: types('rig/rig.d.ts'), interfaces: ['RigBaseOptions', 'RigCommonOptions', 'RigLimbOptions', 'RigAimOptions'] },
  { job: 'tentacle2d', source: types('ik/tentacle.d.ts'), interfaces: ['Tentacle2DOptions'] },
  // "group.option" fields live in the group's interface; the spine's two settle-time ends are
  // one option there (spine.settleTime, a number or one per joint, documented without @default).
  {
    job: 'bodyLookAt', source: types('rig/bodyLookAt.d.ts'), interfaces: ['BodyLookAtOptions'],
    groups: { spine: 'BodyLookAtSpineOptions', weightShift: 'BodyLookAtWeightShiftOptions', armReaction: 'BodyLookAtArmReactionOptions' },
    skip: ['spine.headSettleTime', 'spine.pelvisSettleTime'],
  },
];

// name → { optional, doc, type } of each property of `export interface name [extends ...] { ... }`.
function properties(source, name) {
  const start = source.search(new RegExp(`export interface ${name}( extends [\\w, <>']+)? \\{`));
  expect(start, `interface ${name}`).toBeGreaterThanOrEqual(0);
  const body = source.slice(start, source.indexOf('\n}\n', start));
  const out = {};
  for (const m of body.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(\w+)(\??):\s*([^;]+);/g)) {
    out[m[2]] = { doc: m[1], optional: m[3] === '?', type: m[4] };
  }
  return out;
}

// The value a `@default` states: a JS literal, an array of them, or Math.PI.
function stated(doc) {
  const m = /@default\s+([^\n*]+?)\s*(?:\n|$)/.exec(doc);
  if (!m) return undefined;
  return Function('"use strict"; return (' + m[1] + ');')();
}

// Float defaults match when the stated value rounds to them; double ones
// exactly (or rounded, when C++ writes them from a float constant: kPi).
function sameDefault(statedValue, real, double) {
  const same = (s, r) => typeof s === 'number' && (Math.fround(s) === r && (!double || Math.fround(r) === r || s === r) || s === r);
  if (Array.isArray(real)) return Array.isArray(statedValue) && real.length === statedValue.length && real.every((v, i) => same(statedValue[i], v));
  if (typeof real === 'number') return same(statedValue, real);
  return statedValue === real;
}

// The string literals of a union type, following one `export type` alias.
function literals(source, type) {
  const alias = /^\w+$/.test(type.trim()) ? new RegExp(`export type ${type.trim()} = ([^;]+);`).exec(source) : null;
  return (alias ? alias[1] : type).split('|').map((t) => t.trim()).filter((t) => t.startsWith("'")).map((t) => t.slice(1, -1));
}

describe('typings agree with the C++ descriptions', () => {
  for (const { job, source, interfaces, groups = {}, skip = [] } of CASES) {
    it(`${interfaces.join(', ')}: every ${job} field typed, optional unless required, @default and enum names equal to C++`, () => {
      const layout = jobs[job];
      expect(layout, job).toBeDefined();
      const props = Object.assign({}, ...interfaces.map((name) => properties(source, name)));
      for (const [group, name] of Object.entries(groups)) {
        for (const [key, prop] of Object.entries(properties(source, name))) props[`${group}.${key}`] = prop;
      }
      for (const field of layout.fields) {
        if (skip.includes(field.name)) continue;
        const label = `${interfaces[0]}.${field.name}`;
        const prop = props[field.name];
        expect(prop, `${label} is typed`).toBeDefined();
        expect(prop.optional, `${label} optional`).toBe(field.role !== 'input');
        const real = field.role === 'input' ? undefined : layout.defaultValues[field.name];
        let value = stated(prop.doc);
        if (typeof value === 'string' && field.presets) value = field.presets[value];
        if (real === undefined) {
          expect(value, `${label} states no @default`).toBeUndefined();
        } else {
          const double = field.kind === 'double' || field.kind === 'optionalNumber';
          expect(sameDefault(value, real, double), `${label}: @default ${JSON.stringify(value)} vs ${JSON.stringify(real)}`).toBe(true);
        }
        if (field.kind === 'enum') expect(literals(source, prop.type), `${label} names`).toEqual([...field.enumNames]);
        if (field.presets) expect(literals(source, prop.type), `${label} presets`).toEqual(Object.keys(field.presets));
      }
    });
  }
});

// The rig's per-kind options (web/types/rig/rig.d.ts): every key of ikpd.Rig.defaults[kind]
// is typed in that kind's interface (or the interfaces it extends), and its @default is
// the real default; the bodyLookAt groups are checked through their own interfaces.
describe('Rig typings agree with Rig.defaults', async () => {
  const { init } = await import('../../web/index.js');
  const ikpd = await init({ rig: true });
  const rig = types('rig/rig.d.ts');
  const rigs = types('rig/bodyLookAt.d.ts');
  const KIND_INTERFACES = {
    aim: ['RigAimOptions', 'RigCommonOptions', 'RigBaseOptions'],
    twoBone: ['RigTwoBoneOptions', 'RigLimbOptions', 'RigCommonOptions', 'RigBaseOptions'],
    pseudoThreeBone: ['RigPseudoThreeBoneOptions', 'RigLimbOptions', 'RigCommonOptions', 'RigBaseOptions'],
    chain: ['RigChainOptions', 'RigCommonOptions', 'RigBaseOptions'],
    lookAt: ['RigLookAtOptions', 'RigEyeOptions', 'RigBaseOptions'],
    bodyLookAt: ['RigBodyLookAtOptions', 'RigEyeOptions', 'RigBaseOptions'],
    grounding: ['RigGroundingOptions', 'RigBaseOptions'],
  };
  const GROUPS = { spine: 'BodyLookAtSpineOptions', weightShift: 'BodyLookAtWeightShiftOptions', armReaction: 'BodyLookAtArmReactionOptions' };
  for (const [kind, interfaces] of Object.entries(KIND_INTERFACES)) {
    it(`${interfaces[0]}: every default typed with its real @default`, () => {
      // The kind's own interface first: its declarations override the common ones.
      const props = Object.assign({}, ...interfaces.slice().reverse().map((name) => properties(rig, name)));
      const defaults = ikpd.Rig.defaults[kind];
      expect(Object.keys(defaults).length).toBeGreaterThan(4);
      for (const [key, real] of Object.entries(defaults)) {
        if (key in GROUPS) {
          const group = properties(rigs, GROUPS[key]);
          for (const [k, v] of Object.entries(real)) {
            expect(group[k], `${kind}.${key}.${k} typed`).toBeDefined();
            expect(sameDefault(stated(group[k].doc), v, false), `${kind}.${key}.${k}`).toBe(true);
          }
          continue;
        }
        const prop = props[key];
        expect(prop, `${kind}.${key} is typed`).toBeDefined();
        expect(prop.optional, `${kind}.${key} optional`).toBe(true);
        const value = stated(prop.doc);
        if (real === undefined) expect(value, `${kind}.${key} states no @default`).toBeUndefined();
        else expect(sameDefault(value, real, false), `${kind}.${key}: @default ${JSON.stringify(value)} vs ${JSON.stringify(real)}`).toBe(true);
      }
    });
  }
});

// ikpd/three (web/three/**/*.d.ts, next to each helper): every `@default` of a helper's options
// interfaces (its own and those it extends) is the helper's real default: the
// property the helper keeps (constructed without the option), else the
// default of the solver it drives (its static `defaults`, or the C++
// description of LookAt / BodyLookAt), else what it passes that solver.
// Every typings file of ikpd/three but the HDR nodes' (index.d.ts only re-exports them).
const threeDir = new URL('../../web/three/', import.meta.url);
const threeTypes = readdirSync(threeDir, { recursive: true })
  .filter((f) => f.endsWith('.d.ts') && !f.startsWith('hdr'))
  .sort()
  .map((f) => readFileSync(new URL(f, threeDir), 'utf8'))
  .join('\n');

const boneChain = bentChain;

// The loaded library with its solver classes wrapped to record the options
// each helper passes them (`passed`).
function recordingIkpd(passed) {
  const lib = { ...ikpd };
  for (const [key, value] of Object.entries(ikpd)) {
    if (typeof value !== 'function' || !/^class\b/.test(Function.prototype.toString.call(value))) continue;
    lib[key] = class extends value {
      constructor(...args) {
        for (const a of args) if (a !== null && typeof a === 'object') Object.assign(passed, a);
        super(...args);
      }
    };
  }
  return lib;
}

const AXES = { '+x': [1, 0, 0], '-x': [-1, 0, 0], '+y': [0, 1, 0], '-y': [0, -1, 0], '+z': [0, 0, 1], '-z': [0, 0, -1] };

const HELPERS = [
  { name: 'AimIK', interfaces: ['AimIKOptions', 'HelperOptions', 'BoneAxes'], make: (lib) => new AimIK(lib, boneChain(2)[0]), solver: ikpd.AimSolver.defaults },
  { name: 'TwoBoneIK', interfaces: ['TwoBoneIKOptions', 'LimbOptions', 'HelperOptions', 'BoneAxes', 'ChainAxesOptions'], make: (lib) => new TwoBoneIK(lib, boneChain(3)), solver: ikpd.TwoBoneSolver.defaults },
  { name: 'PseudoThreeBoneIK', interfaces: ['PseudoThreeBoneIKOptions', 'LimbOptions', 'HelperOptions', 'BoneAxes', 'ChainAxesOptions'], make: (lib) => new PseudoThreeBoneIK(lib, boneChain(4)), solver: ikpd.PseudoThreeBoneSolver.defaults },
  { name: 'ChainIK', interfaces: ['ChainIKOptions', 'HelperOptions', 'BoneAxes', 'ChainAxesOptions'], make: (lib) => new ChainIK(lib, boneChain(4)), solver: ikpd.ChainSolver.defaults },
  { name: 'LookAtIK', interfaces: ['LookAtIKOptions'], make: (lib) => new LookAtIK(lib, boneChain(3)), solver: jobs.lookAt.defaultValues,
    // Per-joint limits are packed apart from the described scalars: none given means π (cpp/include/ikpd/rig/look_at.h).
    extra: { limits: Math.PI } },
  { name: 'BodyLookAtIK', interfaces: ['BodyLookAtIKOptions'], make: (lib) => new BodyLookAtIK(lib, createHumanoid({ names: 'mixamo' }).root), solver: jobs.bodyLookAt.defaultValues,
    // facing only sets the head's look axis at construction: checked below by passing it explicitly.
    same: { facing: (lib, facing) => new BodyLookAtIK(lib, createHumanoid({ names: 'mixamo' }).root, { facing }) } },
];

describe('ikpd/three typings state the helpers\' real defaults', () => {
  it.each(HELPERS.map((h) => [h.name, h]))('%s', (_, { interfaces, make, solver, extra = {}, same = {} }) => {
    const passed = {};
    const helper = make(recordingIkpd(passed));
    let checked = 0;
    for (const name of interfaces) {
      for (const [key, prop] of Object.entries(properties(threeTypes, name))) {
        const value = stated(prop.doc);
        if (value === undefined && !/@default/.test(prop.doc)) continue;
        if (same[key]) {
          // The stated default given explicitly passes the solver the same options as none.
          const explicit = {};
          same[key](recordingIkpd(explicit), value).dispose();
          expect(explicit, `${name}.${key}: @default ${JSON.stringify(value)} changes the solver's options`).toEqual(passed);
          checked++;
          continue;
        }
        const sources = [helper[key], solver[key], passed[key], extra[key]];
        let real = sources.find((v) => v !== undefined);
        if (typeof value === 'string' && AXES[value] && Array.isArray(real)) real = AXES[value].every((v, i) => v === real[i]) ? value : real;
        expect(real, `${name}.${key}: no real default found`).not.toBeUndefined();
        expect(sameDefault(value, real, false) || (Array.isArray(real) && JSON.stringify(real) === JSON.stringify(value)),
          `${name}.${key}: @default ${JSON.stringify(value)} vs ${JSON.stringify(real)}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(0);
    helper.dispose();
  });
});

// ikpd/three grounding (web/three/rig/grounding.d.ts): every `@default` of
// GroundingConstraintOptions is what IKRig's grounding constraint holds when
// the option is left out (its settings come from Rig.defaults.grounding; the
// derived ones state none), and every core default is typed there.
describe('ikpd/three grounding typings state the real defaults', async () => {
  const { IKRig } = await import('../../web/three/index.js');
  const { buildHumanoid } = await import('../support/three-humanoid.js');
  it('GroundingConstraintOptions', () => {
    const source = readFileSync(new URL('../../web/three/rig/grounding.d.ts', import.meta.url), 'utf8');
    const common = properties(readFileSync(new URL('../../web/three/rig/ikRig.d.ts', import.meta.url), 'utf8'), 'ConstraintOptions');
    delete common.target;
    const props = { ...common, ...properties(source, 'GroundingConstraintOptions') };
    const rig = new IKRig(ikpd, buildHumanoid().scene);
    const c = rig.add('grounding', {});
    const held = { ...Object.fromEntries(Object.keys(ikpd.Rig.defaults.grounding).map((k) => [k, c[k]])), ground: c.ground, chest: c.bones.chest, plant: c.plant[0] };
    for (const key of Object.keys(ikpd.Rig.defaults.grounding)) {
      if (['pelvis', 'legs', 'joints'].includes(key)) continue;
      expect(props[key], `grounding.${key} is typed`).toBeDefined();
    }
    let checked = 0;
    for (const [key, prop] of Object.entries(props)) {
      const value = stated(prop.doc);
      const real = held[key];
      if (real === null && !['ground', 'chest'].includes(key)) {
        expect(value, `${key}: derived, states no @default`).toBeUndefined();
        continue;
      }
      if (value === undefined) continue;
      expect(sameDefault(value, real, false), `${key}: @default ${JSON.stringify(value)} vs ${JSON.stringify(real)}`).toBe(true);
      checked++;
    }
    expect(checked).toBeGreaterThan(8);
    rig.dispose();
  });
});
