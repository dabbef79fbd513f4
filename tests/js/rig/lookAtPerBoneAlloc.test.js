// LookAtIK with one settleTime per bone (the rig's lookAt with per-joint settle times, docs/rig/look-at.md)
// makes no garbage: 100,000 updates with a moving target under `node --trace-gc`
// (tests/support/look-at-per-bone-frames.mjs) see at most one collection (one may
// come from V8 itself, e.g. code optimized late on a busy machine).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('100,000 updates of a LookAtIK with a settleTime per bone make no garbage', () => {
  const script = fileURLToPath(new URL('../../support/look-at-per-bone-frames.mjs', import.meta.url));
  const out = execFileSync(process.execPath, ['--trace-gc', '--expose-gc', script], { encoding: 'utf8', maxBuffer: 1 << 24 });
  expect(out).toContain('--- done');
  const measured = out.slice(out.indexOf('--- measure'), out.indexOf('--- done'));
  expect(measured.split('\n').filter((line) => /Scavenge|Mark-Compact|Mark-sweep/.test(line)).length).toBeLessThanOrEqual(1);
}, 120_000);
