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
import { AimIK, AvatarIK, BodyLookAtIK, ChainIK, Inertializer, LookAtIK, PseudoThreeBoneIK, TwoBoneIK } from '../../web/three/index.js';
import { createHumanoid } from '../../demo/lib/humanoid.js';
import { ikpd } from '../support/setup.js';
import { bentChain } from '../support/three-rig.js';

// Description → the typings file and the interfaces that together declare its fields.
const CASES = [
  { job: 'twoBone', interfaces: ['TwoBoneOptions'] },
  { job: 'aim', interfaces: ['AimOptions'] },
  { job: 'pd', interfaces: ['PdControllerOptions', 'RotationPdOptions', 'QuatPDOptions'] },
  { job: 'lookAt', interfaces: ['LookAtOptions'] },
  // A rig constraint's common settings: the axes are typed by the kinds that take them.
  { job: 'common', interfaces: ['RigBaseOptions', 'RigCommonOptions', 'RigLimbOptions', 'RigAimOptions'] },
  { job: 'tentacle2d', interfaces: ['Tentacle2DOptions'] },
  // "group.option" fields live in the group's interface; the spine's two settle-time ends are
  // one option there (spine.settleTime, a number or one per joint, documented without @default).
  {
    job: 'bodyLookAt', interfaces: ['BodyLookAtOptions'],
    groups: { spine: 'BodyLookAtSpineOptions', weightShift: 'BodyLookAtWeightShiftOptions', armReaction: 'BodyLookAtArmReactionOptions' },
    skip: ['spine.headSettleTime', 'spine.pelvisSettleTime'],
  },
];

// Every typings file of the package (web/**/*.d.ts): an interface may extend
// one from another file, such as a generated web/types/<area>/described.d.ts.
const webDir = new URL('../../web/', import.meta.url);
const ALL_TYPES = readdirSync(webDir, { recursive: true })
  .filter((f) => f.endsWith('.d.ts'))
  .sort()
  .map((f) => readFileSync(new URL(f, webDir), 'utf8'))
  .join('\n');

// The parts of an extends clause, split at top-level commas: "A, Pick<B, 'x' | 'y'>".
function heritage(clause) {
  const parts = [];
  let depth = 0, start = 0;
  for (let i = 0; i < clause.length; i++) {
    const c = clause[i];
    if (c === '<') depth++;
    else if (c === '>') depth--;
    else if (c === ',' && depth === 0) parts.push(clause.slice(start, i)), start = i + 1;
  }
  return [...parts, clause.slice(start)].map((t) => t.trim()).filter(Boolean);
}

// The keys of a Pick/Omit: a union of string literals, or a type alias of one.
function keyList(union) {
  const alias = /^\w+$/.test(union.trim()) ? new RegExp(`type ${union.trim()} = ([^;]+);`).exec(ALL_TYPES) : null;
  return [...(alias ? alias[1] : union).matchAll(/'(\w+)'/g)].map((m) => m[1]);
}

// name → { optional, doc, type } of each property of `export interface name`
// (every declaration of it), with what it extends: plain names, Pick<T, keys>
// and Omit<T, keys> (its own declarations win over inherited ones).
function properties(name) {
  const out = {};
  const declaration = new RegExp(`export interface ${name}(?:<[^>{]*>)?(?:\\s+extends\\s+([^{]+?))?\\s*\\{`, 'g');
  const matches = [...ALL_TYPES.matchAll(declaration)];
  expect(matches.length, `interface ${name}`).toBeGreaterThan(0);
  for (const m of matches) {
    for (const part of heritage(m[1] ?? '')) {
      const inherited = members(part);
      expect(inherited, `${name} extends ${part}: an interface`).not.toBeNull();
      Object.assign(out, inherited);
    }
  }
  for (const m of matches) {
    const open = m.index + m[0].length;
    const body = ALL_TYPES[open] === '}' ? '' : ALL_TYPES.slice(open, ALL_TYPES.indexOf('\n}\n', open));
    for (const p of body.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(\w+)(\??):\s*([^;]+);/g)) {
      out[p[2]] = { doc: p[1], optional: p[3] === '?', type: p[4] };
    }
  }
  return out;
}

// The properties of a type that names an interface: `Name`, `Pick<Name, keys>` or
// `Omit<Name, keys>`; null for any other type.
function members(type) {
  const pick = /^(Pick|Omit)<(\w+),\s*([^>]+)>$/.exec(type.trim());
  const base = pick ? pick[2] : type.trim().replace(/<.*$/s, '');
  if (!/^\w+$/.test(base) || !new RegExp(`export interface ${base}\\b`).test(ALL_TYPES)) return null;
  const keys = pick ? keyList(pick[3]) : null;
  return Object.fromEntries(Object.entries(properties(base)).filter(([key]) => !keys || (pick[1] === 'Pick') === keys.includes(key)));
}

// The value a `@default` states: a JS literal, an array of them, or Math.PI;
// a damping preset by its value.
const DAMPING = jobs.pd.fields.find((f) => f.name === 'damping').presets;
function stated(doc) {
  const m = /@default\s+([^\n*]+?)\s*(?:\n|$)/.exec(doc);
  if (!m) return undefined;
  const value = Function('"use strict"; return (' + m[1] + ');')();
  return typeof value === 'string' && Object.hasOwn(DAMPING, value) ? DAMPING[value] : value;
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
  for (const { job, interfaces, groups = {}, skip = [] } of CASES) {
    it(`${interfaces.join(', ')}: every ${job} field typed, optional unless required, @default and enum names equal to C++`, () => {
      const layout = jobs[job];
      expect(layout, job).toBeDefined();
      const props = Object.assign({}, ...interfaces.map((name) => properties(name)));
      for (const [group, name] of Object.entries(groups)) {
        for (const [key, prop] of Object.entries(properties(name))) props[`${group}.${key}`] = prop;
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
        if (field.kind === 'enum') expect(literals(ALL_TYPES, prop.type), `${label} names`).toEqual([...field.enumNames]);
        if (field.presets) expect(literals(ALL_TYPES, prop.type), `${label} presets`).toEqual(Object.keys(field.presets));
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
  const KIND_INTERFACES = {
    aim: ['RigAimOptions', 'RigCommonOptions', 'RigBaseOptions'],
    twoBone: ['RigTwoBoneOptions', 'RigLimbOptions', 'RigCommonOptions', 'RigBaseOptions'],
    pseudoThreeBone: ['RigPseudoThreeBoneOptions', 'RigLimbOptions', 'RigCommonOptions', 'RigBaseOptions'],
    chain: ['RigChainOptions', 'RigCommonOptions', 'RigBaseOptions'],
    lookAt: ['RigLookAtOptions', 'RigEyeOptions', 'RigBaseOptions'],
    bodyLookAt: ['RigBodyLookAtOptions', 'RigEyeOptions', 'RigBaseOptions'],
    grounding: ['RigGroundingOptions', 'RigBaseOptions'],
    twist: ['RigTwistOptions', 'RigCommonOptions', 'RigBaseOptions'],
    avatar: ['RigAvatarOptions', 'RigCommonOptions', 'RigBaseOptions'],
  };
  const GROUPS = { spine: 'BodyLookAtSpineOptions', weightShift: 'BodyLookAtWeightShiftOptions', armReaction: 'BodyLookAtArmReactionOptions' };
  for (const [kind, interfaces] of Object.entries(KIND_INTERFACES)) {
    it(`${interfaces[0]}: every default typed with its real @default`, () => {
      // The kind's own interface first: its declarations override the common ones.
      const props = Object.assign({}, ...interfaces.slice().reverse().map((name) => properties(name)));
      const defaults = ikpd.Rig.defaults[kind];
      expect(Object.keys(defaults).length).toBeGreaterThan(4);
      for (const [key, real] of Object.entries(defaults)) {
        if (key in GROUPS) {
          const group = properties(GROUPS[key]);
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
  { name: 'AvatarIK', interfaces: ['AvatarIKOptions'], make: (lib) => new AvatarIK(lib, createHumanoid({ names: 'mixamo' }).root), solver: ikpd.Rig.defaults.avatar,
    // The rig's humanoid and facing: the stated default given explicitly builds the same rig.
    same: Object.fromEntries(['humanoid', 'facing'].map((key) => [key, (lib, value) => new AvatarIK(lib, createHumanoid({ names: 'mixamo' }).root, { [key]: value })])) },
  { name: 'Inertializer', interfaces: ['ThreeInertializerOptions', 'ThreeInertializerConstructorOptions'], make: (lib) => new Inertializer(lib, boneChain(3)[0]), solver: {} },
];

describe('ikpd/three typings state the helpers\' real defaults', () => {
  it.each(HELPERS.map((h) => [h.name, h]))('%s', (_, { interfaces, make, solver, extra = {}, same = {} }) => {
    const passed = {};
    const helper = make(recordingIkpd(passed));
    let checked = 0;
    // Options of a group typed by an interface (BodyLookAtIK's spine, …) as "group.option".
    const props = {};
    for (const name of interfaces) {
      for (const [key, prop] of Object.entries(properties(name))) {
        props[key] = { ...prop, name };
        for (const [option, p] of Object.entries(members(prop.type) ?? {})) props[`${key}.${option}`] = { ...p, name };
      }
    }
    for (const [key, { name, ...prop }] of Object.entries(props)) {
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
      const sources = [helper[key], helper.constraint?.[key], solver[key], passed[key], extra[key]];
      let real = sources.find((v) => v !== undefined);
      if (typeof value === 'string' && AXES[value] && Array.isArray(real)) real = AXES[value].every((v, i) => v === real[i]) ? value : real;
      expect(real, `${name}.${key}: no real default found`).not.toBeUndefined();
      expect(sameDefault(value, real, false) || (Array.isArray(real) && JSON.stringify(real) === JSON.stringify(value)),
        `${name}.${key}: @default ${JSON.stringify(value)} vs ${JSON.stringify(real)}`).toBe(true);
      checked++;
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
    const common = properties('ConstraintOptions');
    delete common.target;
    const props = { ...common, ...properties('GroundingConstraintOptions') };
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
