// RigBatch in the threaded module (docs/rig/rig-batch.md, "Threads"): the
// characters split over the workers give the single-threaded floats bit for
// bit, frame after frame with smoothing; a bad value names its character and
// stops only its part; batches come and go between calls.
import { afterAll, describe, expect, it } from 'vitest';
import { ikpd } from '../../support/setup.js';
import { createModule } from '../../../web/src/module.js';
import { createApi } from '../../../web/src/api.js';
import { createCrowdRig } from '../../../demo/lib/crowdRig.js';
import { fillCrowdFrame } from '../../../bench/js/rig_batch.js';

const apis = [ikpd, createApi(await createModule({ threads: 2 })), createApi(await createModule({ threads: 3 }))];
const made = [];
afterAll(() => made.forEach((o) => o.dispose()));
function crowdOf(api, count) {
  const rig = createCrowdRig(api);
  const batch = new api.RigBatch({ rig, count });
  rig.dispose();
  made.push(batch);
  return batch;
}
const bits = (view) => Array.from(new Uint32Array(view.buffer, view.byteOffset, view.length));

describe('RigBatch on threads', () => {
  // Below and above the 256 characters from which an update splits; counts no multiple of the lanes.
  it.each([255, 257, 1001, 4099])('%i characters: the single-threaded floats, bit for bit, over 20 frames', (count) => {
    const batches = apis.map((api) => crowdOf(api, count));
    expect(apis[1].threads).toBe(2);
    for (let f = 0; f < 20; f++) {
      for (const b of batches) {
        fillCrowdFrame(b, 0.05 * f);
        b.update(f % 3 === 0 ? 1 / 30 : 1 / 144);
      }
      const expected = bits(batches[0].output);
      for (const b of batches.slice(1)) expect(bits(b.output)).toEqual(expected);
      for (const k of [0, 4, 8]) {
        const want = bits(batches[0].constraints[k].distance);
        for (const b of batches.slice(1)) expect(bits(b.constraints[k].distance)).toEqual(want);
      }
    }
    batches.forEach((b) => b.dispose());
  });

  it('a bad value names its character; the part without it is solved', () => {
    const batch = crowdOf(apis[1], 2000);
    fillCrowdFrame(batch);
    batch.update(1 / 60);
    const before = batch.output.slice();
    fillCrowdFrame(batch, 1);
    batch.constraints[0].targets[3 * 1900] = NaN; // in the second part
    expect(() => batch.update(1 / 60)).toThrow(/constraints\[0\]\.targets\[1900\]/);
    // The first part (characters before 1000) moved on; the second kept its output.
    const joint = 1; // the belly: every character's aim writes it
    const moved = (c) => [0, 1, 2, 3].some((k) => batch.output[4 * (joint * 2000 + c) + k] !== before[4 * (joint * 2000 + c) + k]);
    expect(moved(10)).toBe(true);
    expect(moved(1990)).toBe(false);
    batch.dispose();
  });

  it('batches made and disposed between updates, 5,000 split updates without a hang', () => {
    let batch = crowdOf(apis[2], 300);
    for (let f = 0; f < 5000; f++) {
      if (f % 1250 === 0) {
        batch.dispose();
        batch = crowdOf(apis[2], 300 + f / 1250);
        fillCrowdFrame(batch);
      }
      batch.update(1 / 60);
    }
    expect(batch.output.every(Number.isFinite)).toBe(true);
    batch.dispose();
  });
});
