// Native and WASM agree: replays the golden files written by the native build
// (tests/golden/*.json, format in tests/golden/golden.h) through the JS API and
// requires the same results within 1e-5·max(1, |expected|).
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ikpd } from '../support/setup.js';

const dir = new URL('../golden/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.json')).sort();

function resolve(path) {
  const parts = path.split('.');
  let owner = ikpd;
  for (const p of parts.slice(0, -1)) owner = owner[p];
  const fn = owner?.[parts.at(-1)];
  if (fn === undefined) throw new Error(`golden: ikpd.${path} does not exist`);
  return { owner, fn };
}

// Returns null when `actual` matches `expected`, else a path and a reason.
function mismatch(actual, expected, path = '') {
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return `${path}: expected a number, got ${typeof actual}`;
    const tolerance = 1e-5 * Math.max(1, Math.abs(expected));
    return Math.abs(actual - expected) <= tolerance ? null : `${path}: ${actual} vs native ${expected}`;
  }
  if (expected === null || typeof expected !== 'object') {
    return actual === expected ? null : `${path}: ${JSON.stringify(actual)} vs native ${JSON.stringify(expected)}`;
  }
  if (actual === null || typeof actual !== 'object') return `${path}: expected an object or array, got ${actual}`;
  if (Array.isArray(expected) && actual.length !== expected.length) {
    return `${path}: length ${actual.length} vs native ${expected.length}`;
  }
  for (const key of Object.keys(expected)) {
    const m = mismatch(actual[key], expected[key], `${path}.${key}`);
    if (m) return m;
  }
  return null;
}

// A rig case: new ikpd.Rig(c.rig), the constraints added, then per frame the
// input, root and grounds set, probe() and update(dt), and probes, output and
// results compared.
function runRig(c) {
  const rig = new ikpd.Rig(c.rig);
  try {
    for (const [kind, options] of c.add) rig.add(kind, options);
    for (const [i, frame] of c.frames.entries()) {
      rig.input.set(frame.input);
      rig.root.set(frame.root);
      rig.probe();
      rig.grounds.set(frame.grounds);
      rig.update(frame.dt);
      const actual = { probes: Array.from(rig.probes), output: Array.from(rig.output), results: Array.from(rig.results) };
      const m = mismatch(actual, frame.expect, `Rig frame ${i}`);
      if (m) return m;
    }
    return null;
  } finally {
    rig.dispose();
  }
}

function runCase(c) {
  if (c.rig) return runRig(c);
  if (c.call) {
    const { owner, fn } = resolve(c.call);
    return mismatch(fn.apply(owner, c.args), c.expect, c.call);
  }
  const Class = resolve(c.new).fn;
  const object = new Class(...c.args);
  try {
    for (const [i, step] of c.steps.entries()) {
      const result = object[step.call](...step.args);
      const actual = step.expect === undefined ? undefined : Object.fromEntries(
        Object.keys(step.expect).map((k) => [k, k === 'result' ? result : object[k]]));
      const m = step.expect === undefined ? null : mismatch(actual, step.expect, `${c.new} step ${i} ${step.call}`);
      if (m) return m;
    }
    return null;
  } finally {
    object.dispose();
  }
}

describe('golden files (native build) agree with WASM', () => {
  it('has the golden directory', () => {
    expect(readdirSync(dir).length).toBeGreaterThan(0);
  });
  for (const file of files) {
    it(file, () => {
      const { cases } = JSON.parse(readFileSync(new URL(file, dir), 'utf8'));
      expect(cases.length).toBeGreaterThan(0);
      const failures = [];
      cases.forEach((c, i) => {
        const m = runCase(c);
        if (m) failures.push(`case ${i}: ${m}`);
      });
      expect(failures.slice(0, 10)).toEqual([]);
    });
  }
});
