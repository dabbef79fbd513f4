// The markdown pages under docs/, for the tests that read them.
import { readdirSync } from 'node:fs';

/** Every .md under docs/ (area folders included), as a path relative to docs/ ('ik/two-bone.md'). */
export function docsPages(dir = '') {
  return readdirSync(new URL(`../../docs/${dir}`, import.meta.url), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? docsPages(`${dir}${e.name}/`) : e.name.endsWith('.md') ? [`${dir}${e.name}`] : []);
}
