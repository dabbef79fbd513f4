// IKRig.update and a helper's update make no garbage: 100,000 frames of a
// humanoid rig and a TwoBoneIK (moving targets, toggled enabled and weight)
// run under `node --trace-gc` (tests/js/ik-rig-frames.mjs), and V8 reports no
// garbage collection during them. Any allocation per frame (an object, a
// boxed number) would fill the young generation and show up as scavenges.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('100,000 frames of IKRig.update and TwoBoneIK.update trigger no garbage collection', () => {
  const script = fileURLToPath(new URL('./ik-rig-frames.mjs', import.meta.url));
  const out = execFileSync(process.execPath, ['--trace-gc', script], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const measured = out.slice(out.indexOf('--- measure'), out.indexOf('--- done'));
  expect(out).toContain('--- done');
  expect(measured.split('\n').filter((line) => /Scavenge|Mark-Compact|Mark-sweep/.test(line))).toEqual([]);
}, 120_000);
