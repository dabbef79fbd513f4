// The typings state what C++ describes: every field of each job description
// (cpp/bindings/job_fields.h, read by web/src/fields.js) is a property of its
// options interface in web/types/ik.d.ts, required exactly when it is a
// required input, and the `@default` in its doc comment is the real default.
// The PD options (cpp/bindings/pd_fields.h) likewise against web/types/pd.d.ts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createModule } from '../../web/src/module.js';
import { readJobDescriptions } from '../../web/src/fields.js';

const wasm = await createModule();
const jobs = readJobDescriptions(wasm.jobDescriptions(), wasm.HEAPF32);
const ikTypes = readFileSync(new URL('../../web/types/ik.d.ts', import.meta.url), 'utf8');
const pdTypes = readFileSync(new URL('../../web/types/pd.d.ts', import.meta.url), 'utf8');
const INTERFACES = { twoBone: 'TwoBoneOptions', aim: 'AimOptions' };

// name → { optional, doc } of each property of `export interface name { ... }`.
function properties(source, name) {
  const start = source.search(new RegExp(`export interface ${name}( extends [\\w, <>]+)? \\{`));
  expect(start, `interface ${name}`).toBeGreaterThanOrEqual(0);
  const body = source.slice(start, source.indexOf('\n}\n', start));
  const out = {};
  for (const m of body.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*(\w+)(\??):/g)) {
    out[m[2]] = { doc: m[1], optional: m[3] === '?' };
  }
  return out;
}

// The value a `@default` states: a JS literal, an array of them, or Math.PI.
function stated(doc) {
  const m = /@default\s+([^\n*]+?)\s*(?:\n|$)/.exec(doc);
  if (!m) return undefined;
  return Function('"use strict"; return (' + m[1] + ');')();
}

// C++ defaults are float32 (double for the PD options): a stated default
// matches when it rounds to them.
function sameDefault(statedValue, real, round = Math.fround) {
  if (Array.isArray(real)) return Array.isArray(statedValue) && real.length === statedValue.length && real.every((v, i) => round(statedValue[i]) === v);
  if (typeof real === 'number') return typeof statedValue === 'number' && round(statedValue) === real;
  return statedValue === real;
}

describe('typings agree with the C++ job descriptions', () => {
  for (const [job, iface] of Object.entries(INTERFACES)) {
    it(`${iface}: every ${job} field typed, optional unless required, @default equal to the real default`, () => {
      const layout = jobs[job];
      expect(layout, job).toBeDefined();
      const props = properties(ikTypes, iface);
      for (const field of layout.fields) {
        const prop = props[field.name];
        expect(prop, `${iface}.${field.name} is typed`).toBeDefined();
        expect(prop.optional, `${iface}.${field.name} optional`).toBe(field.role !== 'input');
        const real = field.role === 'input' ? undefined : layout.defaultValues[field.name];
        const value = stated(prop.doc);
        if (real === undefined) {
          expect(value, `${iface}.${field.name} states no @default`).toBeUndefined();
        } else {
          expect(sameDefault(value, real), `${iface}.${field.name}: @default ${JSON.stringify(value)} vs ${JSON.stringify(real)}`).toBe(true);
        }
      }
    });
  }
});

describe('PD typings agree with the C++ PD options description', () => {
  it('PdOptions, RotationPdOptions, QuatPDOptions: every option typed and optional, @default equal to the real default', () => {
    const layout = jobs.pd;
    expect(layout, 'pd').toBeDefined();
    const props = { ...properties(pdTypes, 'PdOptions'), ...properties(pdTypes, 'RotationPdOptions'), ...properties(pdTypes, 'QuatPDOptions') };
    for (const field of layout.fields) {
      const prop = props[field.name];
      expect(prop, `${field.name} is typed`).toBeDefined();
      expect(prop.optional, `${field.name} optional`).toBe(true);
      const real = layout.defaultValues[field.name];
      let value = stated(prop.doc);
      if (typeof value === 'string' && field.presets) value = field.presets[value];
      if (real === undefined) {
        expect(value, `${field.name} states no @default`).toBeUndefined();
      } else {
        // Exact, or rounded to float for a default C++ writes from a float constant (maxAngle: kPi).
        expect(sameDefault(value, real, (v) => v) || sameDefault(value, real), `${field.name}: @default ${JSON.stringify(value)} vs ${JSON.stringify(real)}`).toBe(true);
      }
      if (field.kind === 'enum') {
        const type = /\?:\s*([^;]+);/.exec(pdTypes.slice(pdTypes.indexOf(`${field.name}?:`)))[1];
        const named = type === 'PdIntegrator' ? /export type PdIntegrator = ([^;]+);/.exec(pdTypes)[1] : type;
        expect(named.split('|').map((t) => t.trim().replace(/'/g, '')), `${field.name} names`).toEqual([...field.enumNames]);
      }
    }
  });
});
