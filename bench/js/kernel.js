// The native two-bone kernel's #29 figures, each measured in this run
// (bench/run.mjs prints them; BENCHMARKS.md records them):
// - packed operations per item, counted with callgrind over TwoBoneBatchJob::Run
//   and its kernel, and the FP-throughput limit they set: packed FP arithmetic
//   and compares at 2 per cycle, cycles from the CoreClock benchmark;
// - the batch against the kernel as it was before #29 (commit BEFORE, built
//   from git into build/before-29), the two timed alternately;
// - TwoBoneJob and AimJob beside ozz-animation's IKTwoBoneJob and IKAimJob,
//   when IKPD_OZZ_DIR and IKPD_OZZ_BUILD name its source and build
//   (bench/ozz/side_by_side.cc; ozz is never a dependency).
// Each part that cannot run here says why instead. Not shipped.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { median, nativeMedians } from './measure.js';

/** The last commit before #29's kernel work (its parent, 53bce57, began it). */
export const BEFORE = '665ec61';

// Each sample at least Google Benchmark's default time (these figures compare builds, so longer samples).
const MIN_MS = 500;

const run = (cmd, args, options = {}) => execFileSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...options });
const has = (cmd) => {
  try {
    run('sh', ['-c', `command -v ${cmd}`], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};

// Instructions per item of TwoBoneBatchJob::Run and SolveTwoBone<Wide>, by
// mnemonic: callgrind's count per instruction address (--dump-instr),
// mnemonics from objdump. Items: the kernel's calls × its lanes.
function countOps(exe, out, lanes) {
  run('valgrind', ['--tool=callgrind', '--dump-instr=yes', `--callgrind-out-file=${out}`, exe,
    '--benchmark_filter=^TwoBoneBatch$', '--benchmark_min_time=0.001'], { stdio: 'ignore' });
  const names = { ob: new Map(), fn: new Map() };
  const counts = new Map();
  let ob = '', fn = '', address = 0, entry = null, callLine = false;
  const ours = (name) => /SolveTwoBone<ikpd::simd::F\d>|TwoBoneBatchJob::Run\(\)/.test(name);
  for (const line of readFileSync(out, 'utf8').split('\n')) {
    const named = /^(c?)(ob|fn)=\((\d+)\)(?: (.*))?$/.exec(line);
    if (named) {
      const [, called, kind, id, name] = named;
      if (name) names[kind].set(id, name);
      if (!called) kind === 'ob' ? (ob = names.ob.get(id)) : (fn = names.fn.get(id));
      continue;
    }
    if (line.startsWith('calls=')) { callLine = true; continue; }
    const position = /^(0x[0-9a-f]+|[+-]\d+|\*)\s/.exec(line);
    if (!position) continue;
    const p = position[1];
    if (p.startsWith('0x')) address = parseInt(p, 16);
    else if (p !== '*') address += Number(p);
    if (callLine) { callLine = false; continue; } // a call's inclusive cost, not this instruction's
    if (!ob.endsWith('ikpd_bench') || !ours(fn)) continue;
    if (entry === null && /SolveTwoBone</.test(fn)) entry = address;
    counts.set(address, (counts.get(address) ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  rmSync(out, { force: true });
  const mnemonics = new Map();
  for (const l of run('objdump', ['-d', '--no-show-raw-insn', exe]).split('\n')) {
    const m = /^\s+([0-9a-f]+):\s+(\S+)/.exec(l);
    if (m) mnemonics.set(parseInt(m[1], 16), m[2]);
  }
  const items = counts.get(entry) * lanes;
  const per = { instructions: 0, fp: 0, logic: 0, moves: 0, shuffles: 0 };
  for (const [a, c] of counts) {
    const op = mnemonics.get(a) ?? '';
    per.instructions += c;
    if (/^v?(add|sub|mul|div|sqrt|min|max|cmp\w*)ps$/.test(op)) per.fp += c;
    else if (/^v?(and|andn|or|xor)ps$/.test(op)) per.logic += c;
    else if (/^v?mov(aps|ups)$/.test(op)) per.moves += c;
    else if (/^v?(shuf|unpck[lh])ps$|^v?mov(hl|lh)ps$/.test(op)) per.shuffles += c;
  }
  for (const k of Object.keys(per)) per[k] /= items;
  return per;
}

// The kernel as it was at BEFORE, built once from git into build/before-29 (null, why: when that cannot be done).
function buildBefore(root) {
  const dir = join(root, 'build/before-29');
  const exe = join(dir, 'build/bench/ikpd_bench');
  if (existsSync(exe)) return { exe };
  if (!existsSync(join(root, '.git'))) return { why: 'not a git checkout' };
  try {
    mkdirSync(join(dir, 'src'), { recursive: true });
    run('sh', ['-c', `git -C "${root}" archive ${BEFORE} | tar -x -C "${join(dir, 'src')}"`], { stdio: 'pipe' });
    run('cmake', ['-S', join(dir, 'src'), '-B', join(dir, 'build'), '-DCMAKE_BUILD_TYPE=Release'], { stdio: 'pipe' });
    run('cmake', ['--build', join(dir, 'build'), '-j2', '--target', 'ikpd_bench'], { stdio: 'pipe' });
    return { exe };
  } catch (error) {
    return { why: `building ${BEFORE} failed: ${String(error.message).split('\n')[0]}` };
  }
}

// ikpd_ozz_bench built into build/native against the ozz tree the environment names.
function ozzBench(root) {
  const { IKPD_OZZ_DIR: source, IKPD_OZZ_BUILD: build } = process.env;
  if (!source || !build) return { why: 'set IKPD_OZZ_DIR and IKPD_OZZ_BUILD to an ozz-animation source and build (BENCHMARKS.md, Reproduce)' };
  try {
    run('cmake', ['-S', root, '-B', join(root, 'build/native'), `-DIKPD_OZZ_DIR=${source}`, `-DIKPD_OZZ_BUILD=${build}`], { stdio: 'pipe' });
    run('cmake', ['--build', join(root, 'build/native'), '-j2', '--target', 'ikpd_ozz_bench'], { stdio: 'pipe' });
    return { exe: join(root, 'build/native/bench/ikpd_ozz_bench') };
  } catch (error) {
    return { why: `building ikpd_ozz_bench failed: ${String(error.message).split('\n')[0]}` };
  }
}

/**
 * The #29 kernel figures: `{ clockGHz, perItem, limitNs, batchNs, toLimit, before, ozz, skipped }`;
 * `skipped` lists the parts that could not run, each with why.
 */
export function benchKernel(root, { reps = 15 } = {}) {
  const exe = join(root, 'build/native/bench/ikpd_bench');
  const out = { skipped: [] };
  const rounds = 3, each = Math.max(3, Math.round(reps / rounds));
  const before = buildBefore(root);
  if (!before.exe) out.skipped.push(`two-bone batch before #29: skipped (${before.why})`);
  // Alternate the two builds (and the clock), so that load from elsewhere hits both alike.
  const samples = { now: [], before: [], cycle: [] };
  for (let r = 0; r < rounds; r++) {
    const t = nativeMedians(exe, { filter: '^(TwoBoneBatch|CoreClock)$', reps: each, minMs: MIN_MS }).results;
    samples.now.push(t.TwoBoneBatch);
    samples.cycle.push(t.CoreClock);
    if (before.exe) samples.before.push(nativeMedians(before.exe, { filter: '^TwoBoneBatch$', reps: each, minMs: MIN_MS }).results.TwoBoneBatch);
  }
  out.batchNs = median(samples.now);
  out.clockGHz = 1 / median(samples.cycle);
  if (before.exe) out.before = { commit: BEFORE, ns: median(samples.before), speedup: median(samples.before) / out.batchNs };
  if (has('valgrind') && has('objdump')) {
    out.perItem = countOps(exe, join(root, 'build/callgrind.two_bone'), 8);
    out.limitNs = out.perItem.fp / 2 / out.clockGHz;
    out.toLimit = out.batchNs / out.limitNs;
  } else {
    out.skipped.push('two-bone FP-throughput limit: skipped (needs valgrind and objdump)');
  }
  const ozz = ozzBench(root);
  if (ozz.exe) {
    const t = nativeMedians(ozz.exe, { reps, minMs: MIN_MS }).results;
    out.ozz = {
      twoBone: { ikpd: t.TwoBoneIkpd, ozz: t.TwoBoneOzz, ratio: t.TwoBoneIkpd / t.TwoBoneOzz },
      aim: { ikpd: t.AimIkpd, ozz: t.AimOzz, ratio: t.AimIkpd / t.AimOzz },
    };
  } else {
    out.skipped.push(`side by side with ozz-animation: skipped (${ozz.why})`);
  }
  return out;
}

/** The figures as the lines bench/run.mjs prints, each with its #29 target. */
export function kernelLines(k) {
  const ns = (v) => `${v.toFixed(1)} ns`;
  const lines = [];
  if (k.before) {
    lines.push(`two-bone batch, native SSE2: ${ns(k.batchNs)} per item; before #29 (${k.before.commit}, same run) ${ns(k.before.ns)}: ` +
      `${k.before.speedup.toFixed(2)}× faster (target ≥ 1.5×)`);
  }
  if (k.perItem) {
    const p = k.perItem;
    lines.push(`  per item (callgrind): ${p.instructions.toFixed(0)} instructions, ${p.fp.toFixed(1)} packed FP arithmetic and compares, ` +
      `${p.logic.toFixed(1)} logic, ${p.shuffles.toFixed(1)} shuffles, ${p.moves.toFixed(1)} moves (register copies, spills, loads and stores); ` +
      `FP-throughput limit ${ns(k.limitNs)} (2 per cycle at ${k.clockGHz.toFixed(2)} GHz, CoreClock): measured ${k.toLimit.toFixed(2)}× it (target ≤ 1.5×)`);
  }
  if (k.ozz) {
    const { twoBone: t, aim: a } = k.ozz;
    lines.push(`beside ozz-animation (same problems, same run): TwoBoneJob ${ns(t.ikpd)} vs IKTwoBoneJob ${ns(t.ozz)} = ${t.ratio.toFixed(2)}× ` +
      `(target ≤ 0.8×); AimJob ${ns(a.ikpd)} vs IKAimJob ${ns(a.ozz)} = ${a.ratio.toFixed(2)}× (target ≤ 1×)`);
  }
  return lines;
}
