// The rig's constraint kinds are one file per kind in each JS layer
// (docs/architecture.md, "Adding a constraint kind"): web/src/rig/kinds/ and
// web/three/rig/kinds/ each hold a file per kind of Rig.kinds, registered in
// the layer's table in the core's order, and no file of web/ branches on a
// kind by name outside those folders; IKRig's private fields are read in
// ikRig.js only (the others use its internal interface, web/three/rig/internal.js).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { KINDS, KIND_TABLE } from '../../../web/src/rig/kinds/index.js';
import { KIND_TABLE as THREE_KINDS } from '../../../web/three/rig/kinds/index.js';

const web = fileURLToPath(new URL('../../../web/', import.meta.url));
const sources = readdirSync(web, { recursive: true }).filter((f) => f.endsWith('.js') && !f.startsWith('lib')).sort();
const read = (file) => readFileSync(join(web, file), 'utf8');

describe('rig kinds', () => {
  it('each kind has its file in web/src/rig/kinds/ and web/three/rig/kinds/, registered in the core order', () => {
    expect(KINDS).toEqual(ikpd.Rig.kinds);
    expect(Object.keys(THREE_KINDS)).toEqual([...ikpd.Rig.kinds]);
    for (const kind of ikpd.Rig.kinds) {
      for (const folder of ['src/rig/kinds', 'three/rig/kinds']) {
        const file = `${folder}/${kind}.js`;
        expect(existsSync(join(web, file)), file).toBe(true);
        expect(read(file), file).toMatch(new RegExp(`export const ${kind} = `));
      }
      expect(KIND_TABLE[kind].job, kind).toBeTypeOf('string');
      expect(THREE_KINDS[kind].resolve, kind).toBeTypeOf('function');
    }
  });

  it("no file of web/ outside the kinds folders branches on a constraint kind by name (kind === '…')", () => {
    const names = ikpd.Rig.kinds.join('|');
    const branch = new RegExp(`kind\\s*[!=]==\\s*'(${names})'|'(${names})'\\s*[!=]==\\s*\\w*kind|case '(${names})':`);
    const found = sources.filter((f) => !f.includes('/kinds/') && branch.test(read(f)));
    expect(found).toEqual([]);
  });

  it('no file but web/three/rig/ikRig.js reads an IKRig private field (rig._x)', () => {
    const found = sources.filter((f) => f !== join('three', 'rig', 'ikRig.js') && /\brig\._[A-Za-z]/.test(read(f)));
    expect(found).toEqual([]);
  });
});
