// The entry points under test are exactly the exported API: every function
// and class of the loaded module (and of ikpd.hdr) is in tests/support/entry-points.js
// and every entry there exists, every class that owns WASM memory is in the
// leak list (tests/support/wasm-classes.js), and the package's exports ('ikpd',
// 'ikpd/three') are the ones listed. Tests no longer skip entries "not on the
// ikpd object yet": a missing one fails here.
import { describe, expect, it } from 'vitest';
import * as core from '../../web/index.js';
import * as three from '../../web/three/index.js';
import * as threeHdr from '../../web/three/hdr/hdr.js';
import { CLASSES, CONSTANTS, CORE_EXPORTS, FUNCTIONS, THREE_EXPORTS, THREE_HDR_EXPORTS } from '../support/entry-points.js';
import { WASM_CLASSES } from '../support/wasm-classes.js';
import { ikpd } from '../support/setup.js';

const isClass = (value) => typeof value === 'function' && /^class\b/.test(Function.prototype.toString.call(value));
const sorted = (list) => [...new Set(list)].sort();

// Every member of the ikpd object and of ikpd.hdr, by kind.
function members() {
  const out = { functions: [], classes: [], constants: [] };
  for (const [prefix, owner] of [['', ikpd], ['hdr.', ikpd.hdr]]) {
    for (const [key, value] of Object.entries(owner)) {
      const path = prefix + key;
      if (isClass(value)) out.classes.push(path);
      else if (typeof value === 'function') out.functions.push(path);
      else out.constants.push(path);
    }
  }
  return out;
}

describe('the entry points under test are the exported API', () => {
  it('every function of the loaded module is in FUNCTIONS, and every FUNCTIONS path exists', () => {
    expect(sorted(FUNCTIONS.map((f) => f.path))).toEqual(sorted(members().functions));
  });

  it('every class of the loaded module is in CLASSES, and every CLASSES name exists', () => {
    expect(sorted(CLASSES.map((c) => c.name))).toEqual(sorted(members().classes));
  });

  it('the other members are the listed constants', () => {
    expect(sorted(members().constants)).toEqual(sorted(CONSTANTS));
  });

  it('every class on the loaded module (and HdrBuffer from hdr.createBuffer) is in the leak list', () => {
    expect(sorted(WASM_CLASSES.map((c) => c.name))).toEqual(sorted([...members().classes, 'HdrBuffer']));
    const buffer = ikpd.hdr.createBuffer(1);
    expect(buffer.constructor.name).toBe('HdrBuffer');
    buffer.dispose();
  });

  it("'ikpd', 'ikpd/three' and 'ikpd/three/hdr' export what the lists name", () => {
    expect(sorted(Object.keys(core))).toEqual(sorted(CORE_EXPORTS));
    expect(sorted(Object.keys(three))).toEqual(sorted(THREE_EXPORTS));
    expect(sorted(Object.keys(threeHdr))).toEqual(sorted(THREE_HDR_EXPORTS));
  });
});
