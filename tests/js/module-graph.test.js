// The import graph of web/ (every relative `import … from` / `export … from`):
// each import names a file that exists, and no module imports itself through
// others (web/src/core.js imported fields.js, which imported core.js: the
// shared readers are now web/src/readers.js, a leaf).
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
