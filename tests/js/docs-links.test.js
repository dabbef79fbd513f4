// Every relative link of the markdown pages (docs/, README.md, BENCHMARKS.md)
// and every `docs/….md` path they name lands on a file: a page moved into its
// area's folder (docs/ik/, docs/rig/, …) must take its links and the links to
// it along. Anchors (#…) and web addresses are not checked.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { docsPages } from '../support/docs-pages.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

/** The links and docs/ paths of `text` (the page at repo path `page`) that name no file. */
function broken(page, text) {
  const missing = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/.test(target) || target.startsWith('#')) continue;
    if (!existsSync(join(root, dirname(page), target.split('#')[0]))) missing.push(`${page}: link ${target}`);
  }
  for (const [path] of text.matchAll(/(?<![\w./-])docs\/[\w/-]+\.md/g)) {
    if (!existsSync(join(root, path))) missing.push(`${page}: ${path}`);
  }
  return missing;
}

it('every relative link and docs/ path of the markdown pages exists', () => {
  const pages = ['README.md', 'BENCHMARKS.md', ...docsPages().map((page) => `docs/${page}`)];
  expect(pages).toContain('docs/ik/two-bone.md');
  expect(pages.flatMap((page) => broken(page, readFileSync(join(root, page), 'utf8')))).toEqual([]);
});

it('reports a link or docs/ path that goes nowhere, and only those', () => {
  const text = '[a](../rig/rig.md) [b](two-bone.md#limits) [c](../nowhere.md) `docs/ik/aim.md` `docs/nowhere.md` [d](https://x.y/z.md)';
  expect(broken('docs/ik/aim.md', text)).toEqual(['docs/ik/aim.md: link ../nowhere.md', 'docs/ik/aim.md: docs/nowhere.md']);
});
