// docs/architecture.md matches the files: every path it names exists, every
// layer has one folder per area and no other area folder, and the new-option
// checklist names each file a two-bone setting touches (each holds the worked
// example, `soften`).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const read = (path) => readFileSync(new URL(path, root), 'utf8');
const exists = (path) => existsSync(new URL(path, root));
const text = read('docs/architecture.md');

const AREAS = ['ik', 'rig', 'pd', 'hdr', 'batch'];
// Per layer: its area folders, and the other folders it may hold (not areas).
const LAYERS = {
  'cpp/include/ikpd': { areas: AREAS, others: [] },
  'cpp/src': { areas: AREAS, others: ['simd', 'describe'] },
  'cpp/bindings': { areas: AREAS, others: ['describe'] },
  'web/src': { areas: AREAS, others: [] },
  'web/types': { areas: AREAS, others: [] },
  'web/three': { areas: ['ik', 'rig', 'hdr'], others: [] },
  'tests/native': { areas: AREAS, others: [] },
  'tests/js': { areas: AREAS, others: [] },
  docs: { areas: AREAS, others: [] },
};

const folders = (path) => readdirSync(new URL(`${path}/`, root)).filter((name) => statSync(new URL(`${path}/${name}`, root)).isDirectory());

describe('docs/architecture.md', () => {
  it('every path it names exists (<area> stands for each area of the layer)', () => {
    const paths = [...text.matchAll(/`((?:cpp|web|tests|docs|demo|bench)\/[^`\s]*)`/g)].map((m) => m[1]);
    expect(paths.length).toBeGreaterThan(40);
    const missing = [];
    for (const path of paths) {
      const candidates = path.includes('<area>') ? AREAS.map((a) => path.replace('<area>', a)) : [path];
      // A glob names its folder: `web/src/**/*.js` → web/src/.
      const real = candidates.map((p) => p.split('*')[0]).filter((p) => exists(p));
      if (real.length === 0) missing.push(path);
    }
    expect(missing).toEqual([]);
  });

  it('every layer has one folder per area, and no folder named after anything else', () => {
    for (const [layer, { areas, others }] of Object.entries(LAYERS)) {
      const found = folders(layer).filter((name) => name !== 'support' && name !== 'corpus');
      expect(found.sort(), layer).toEqual([...areas, ...others].sort());
    }
  });

  it('the new-option checklist names every file a two-bone setting touches, and each holds `soften`', () => {
    const table = text.slice(text.indexOf('<!-- new-option:start -->'), text.indexOf('<!-- new-option:end -->'));
    const files = [...table.matchAll(/^\| \d+ \| `([^`]+)` \|/gm)].map((m) => m[1]);
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const file of files) {
      expect(exists(file), file).toBe(true);
      expect(read(file), file).toMatch(/\bsoften\b/);
    }
    // Where JS takes the option without an edit: the rig's limb list comes from the description.
    expect(read('web/src/rig/kinds/shared.js')).toMatch(/twoBone\.options\.map/);
    expect(read('web/three/ik/limb.js')).not.toMatch(/'soften'/);
    // And the other way: every C++ file of the IK and batch areas and of the
    // bindings whose code (comments aside) names `soften` is in the list, so
    // an option copied, checked or packed anywhere else would fail here.
    const walk = (dir) => readdirSync(new URL(`${dir}/`, root)).flatMap((name) => {
      const path = `${dir}/${name}`;
      return statSync(new URL(path, root)).isDirectory() ? walk(path) : [path];
    });
    const code = (path) => read(path).split('\n').map((line) => line.replace(/\/\/.*$/, '')).join('\n');
    const touched = ['cpp/include/ikpd/ik', 'cpp/src/ik', 'cpp/include/ikpd/batch', 'cpp/src/batch', 'cpp/bindings']
      .flatMap(walk).filter((path) => /\.(h|cc)$/.test(path) && /\bsoften\b/.test(code(path)));
    expect(touched.length).toBeGreaterThanOrEqual(3);
    expect(touched.filter((path) => !files.includes(path))).toEqual([]);
    // No typings file declares it by hand: they compose the generated interfaces
    // (grounding's own soften is described in the rig area's).
    const typed = ['web/types', 'web/three'].flatMap(walk).filter((path) => path.endsWith('.d.ts') && /^\s*soften\??:/m.test(read(path)));
    expect(typed.sort()).toEqual(['web/types/ik/described.d.ts', 'web/types/rig/described.d.ts']);
  });
});
