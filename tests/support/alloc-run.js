// The test's side of the allocation tests: runs a *-frames.mjs script under
// the allocation probe (tests/support/alloc-probe.mjs) and reads back what
// each measure allocated.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { ALLOC_PROBE_FLAGS } from './alloc-probe.mjs';

/**
 * Each measure's least bytes over its rounds (tests/support/alloc-probe.mjs),
 * per frame, and the collections V8 printed during any round (a collection
 * voids a round's count, so the tests expect none).
 * @returns {Record<string, { bytes: number, frames: number, perFrame: number, rounds: number[], collections: number }>}
 *   and the script's output as `.output`
 */
export function allocations(scriptUrl, ...args) {
  const script = fileURLToPath(scriptUrl);
  const output = execFileSync(process.execPath, [...ALLOC_PROBE_FLAGS, script, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const measures = {};
  for (const [, name, lines, bytes, frames] of output.matchAll(/--- measure (.*)\n([\s\S]*?)--- done \1 (-?\d+) (\d+)\n/g)) {
    const m = (measures[name] ??= { bytes: Infinity, frames: Number(frames), perFrame: Infinity, rounds: [], collections: 0 });
    m.collections += lines.split('\n').filter((line) => /Scavenge|Mark-Compact|Mark-sweep|Minor/.test(line)).length;
    m.rounds.push(Number(bytes));
    m.bytes = Math.min(...m.rounds);
    m.perFrame = m.bytes / m.frames;
  }
  Object.defineProperty(measures, 'output', { value: output });
  return measures;
}
