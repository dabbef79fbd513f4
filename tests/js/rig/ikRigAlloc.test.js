// IKRig.update and a helper's update make no garbage: 300,000 frames of a
// humanoid rig and a TwoBoneIK (moving targets, a toggled enabled), and of
// a grounding rig on each kind of ground (tests/support/grounding-frames.mjs), each run under
// `node --trace-gc` (tests/support/ik-rig-frames.mjs), and V8 reports at most one
// garbage collection during them (one may come from V8 itself, e.g. code
// optimized late on a busy machine). An allocation per frame of 30 bytes or
// more (an object, a boxed number) would fill the young generation at least
// twice and show up as scavenges.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// V8's own collections (one may come, e.g. code optimized late on a busy machine) allowed once per run.
function collectionsDuring(file, ...args) {
  const script = fileURLToPath(new URL(file, import.meta.url));
  const out = execFileSync(process.execPath, ['--trace-gc', script, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  expect(out).toContain('--- done');
  const measured = out.slice(out.indexOf('--- measure'), out.indexOf('--- done'));
  return measured.split('\n').filter((line) => /Scavenge|Mark-Compact|Mark-sweep/.test(line)).length;
}

it('300,000 frames of IKRig.update and TwoBoneIK.update make no garbage', () => {
  expect(collectionsDuring('../../support/ik-rig-frames.mjs')).toBeLessThanOrEqual(1);
}, 120_000);

for (const ground of ['function', 'plane', 'none']) {
  it(`300,000 frames of a grounding rig (ground: ${ground}) make no garbage`, () => {
    expect(collectionsDuring('../../support/grounding-frames.mjs', ground)).toBeLessThanOrEqual(1);
  }, 120_000);
}
