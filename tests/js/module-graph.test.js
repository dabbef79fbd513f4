// The import graph of web/ (every relative `import … from` / `export … from`):
// each import names a file that exists, no module imports itself through
// others (web/src/core.js imported fields.js, which imported core.js: the
// shared readers are now web/src/readers.js, a leaf), and web/three's folders
// import each other one way only (web/three/helper.js and web/three/rig/
// imported each other: RigHelper is now web/three/rig/rigHelper.js).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const web = fileURLToPath(new URL('../../web/', import.meta.url));
const files = readdirSync(web, { recursive: true }).filter((f) => /\.m?js$/.test(f) && !f.startsWith('lib')).sort();
const IMPORT = /^\s*(?:import|export)\s[^'"]*?\sfrom\s+['"](\.{1,2}\/[^'"]+)['"]|^\s*import\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

const graph = new Map(files.map((file) => {
  const source = readFileSync(join(web, file), 'utf8');
  const targets = [...source.matchAll(IMPORT)].map((m) => normalize(join(dirname(file), m[1] ?? m[2])));
  return [normalize(file), targets];
}));

it('every relative import in web/ names a file', () => {
  const missing = [...graph].flatMap(([file, targets]) => targets.filter((t) => !existsSync(join(web, t))).map((t) => `${file} -> ${t}`));
  expect(missing).toEqual([]);
});

it('web/ has no import cycle', () => {
  const cycles = [];
  const state = new Map(); // file -> 'open' while on the path, 'done' after
  const visit = (file, path) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      cycles.push([...path.slice(path.indexOf(file)), file].join(' -> '));
      return;
    }
    state.set(file, 'open');
    for (const next of graph.get(file) ?? []) visit(next, [...path, file]);
    state.set(file, 'done');
  };
  for (const file of graph.keys()) visit(file, []);
  expect(cycles).toEqual([]);
});

it("web/three's folders import each other one way only (the entry index.js aside; a kinds/ folder is its area's)", () => {
  const folderOf = (file) => dirname(file).replace(/\/kinds$/, '');
  const edges = new Map(); // folder -> Map(folder it imports -> an example import)
  for (const [file, targets] of graph) {
    if (!file.startsWith('three') || file.endsWith('index.js')) continue;
    for (const target of targets) {
      const from = folderOf(file), to = folderOf(target);
      if (from === to) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      edges.get(from).set(to, `${file} -> ${target}`);
    }
  }
  const cycles = [];
  const state = new Map();
  const visit = (folder, path) => {
    if (state.get(folder) === 'done') return;
    if (state.get(folder) === 'open') {
      const loop = [...path.slice(path.indexOf(folder)), folder];
      cycles.push(loop.slice(1).map((to, i) => edges.get(loop[i]).get(to)).join(', '));
      return;
    }
    state.set(folder, 'open');
    for (const next of edges.get(folder)?.keys() ?? []) visit(next, [...path, folder]);
    state.set(folder, 'done');
  };
  for (const folder of edges.keys()) visit(folder, []);
  expect(edges.size).toBeGreaterThanOrEqual(3);
  expect(cycles).toEqual([]);
});
