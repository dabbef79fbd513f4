// The native tests are compiled once and linked against every build of the
// library (CMakeLists.txt, IKPD_LANE_VARIANTS: without SIMD lanes, x86-64-v3).
// That is sound only while no shared test source reaches the lane code, whose
// meaning changes with those flags: this test keeps it so. The few that must
// (internal inline code) are compiled per variant with its flags.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const root = new URL('../../', import.meta.url).pathname;
const files = (dir) => readdirSync(join(root, dir)).flatMap((name) => {
  const path = join(dir, name);
  return statSync(join(root, path)).isDirectory() ? files(path) : [path];
});
// Test sources that include lane headers for declarations only and run no lane
// code themselves (the lane code they reach runs in the library): the kind
// table's test reads the registry's entries (names, traits, function pointers).
const DECLARATIONS_ONLY = new Set(['tests/native/rig/rig_kinds_test.cc']);
// Test sources compiled with each variant's own flags (CMakeLists.txt's IKPD_LANE_TEST_SOURCES):
// they may reach lane code, and each must (else it belongs with the shared objects).
const cmake = readFileSync(join(root, 'CMakeLists.txt'), 'utf8');
const PER_VARIANT = new Set(/set\(IKPD_LANE_TEST_SOURCES\s+([^)]*)\)/.exec(cmake)[1].trim().split(/\s+/));
const includes = (path) => [...readFileSync(join(root, path), 'utf8').matchAll(/#include "([^"]+)"/g)].map((m) => m[1]);

it('no native test source includes lane code, directly or through a header it includes', () => {
  const seen = new Set();
  const reached = [];
  // Follows quoted includes relative to the including file, then the include
  // paths the tests build with (cpp/include, tests/support).
  const visit = (path, from) => {
    if (seen.has(path)) return;
    seen.add(path);
    if (/(^|\/)simd\//.test(path) || /IKPD_NO_SIMD|__AVX2__/.test(readFileSync(join(root, path), 'utf8'))) reached.push(`${path} (from ${from})`);
    for (const inc of includes(path)) {
      const candidates = [join(path, '..', inc), join('cpp/include', inc), join('tests/support', inc)];
      const found = candidates.find((c) => { try { return statSync(join(root, c)).isFile(); } catch { return false; } });
      if (found) visit(found, path);
    }
  };
  const sources = files('tests/native').filter((p) => p.endsWith('.cc'));
  expect(sources.length).toBeGreaterThan(40);
  for (const source of sources) if (!DECLARATIONS_ONLY.has(source) && !PER_VARIANT.has(source)) visit(source, source);
  expect(reached).toEqual([]);
  // Each per-variant source exists and reaches lane code.
  expect(PER_VARIANT.size).toBeGreaterThan(0);
  for (const source of PER_VARIANT) {
    expect(sources).toContain(source);
    seen.clear();
    reached.length = 0;
    visit(source, source);
    expect(reached.length, source).toBeGreaterThan(0);
  }
});
