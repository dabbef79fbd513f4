// `npm run bench`: one table comparing native C++ (Google Benchmark), the WASM
// batch API, the WASM single-call JS API and pure-JS implementations of the
// same algorithms, plus size and start-up. Medians over repetitions, all in
// this one run. Writes build/bench-results.json as well. Not part of the tests.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Quaternion, Vector3 } from 'three';
import { init } from '../web/index.js';
import { makeAimProblems, makePdProblems, makeTwoBoneProblems } from './problems.js';
import { solveAimJS, solveTwoBoneJS } from './js/ik.js';
import { updateQuatPdJS, updateScalarPdJS } from './js/pd.js';
import { makeThreeCcd } from './js/three_ccd.js';
import { makeChainTargets } from './problems.js';
import { solveTwoBoneLean } from './js/lean_two_bone.js';
import { bindAllAreas, createModule } from '../web/src/module.js';
import { benchThreeRig } from './js/three_rig.js';
import { benchGrounding } from './js/grounding.js';
import { benchRealCharacter } from './js/real_character.js';
import { benchTransitions, benchTransitionsHumanoid } from './js/transitions.js';
import { benchSprings } from './js/springs.js';
import { benchSpringsParts } from './js/springs_parts.js';
import { benchWasmThreads } from './js/threads.js';
import { benchRigBatch } from './js/rig_batch.js';
import { makeComposedCrowd } from './js/crowd.js';
import { benchSpringsCrowd } from './js/springs_crowd.js';
import { benchKernel, kernelLines } from './js/kernel.js';
import { MIN_MS, REPS, measure, median, nativeMedians, quick } from './js/measure.js';
import { fmt, printChains, printExtras, printTable, ratio } from './js/report.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const N = 1024; // items per batch call (same as bench/native.cc)

// Median ns per item of each native benchmark of a build (build/native, or
// build/v3: the optional x86-64-v3 build, AVX2 8-wide lanes), optionally filtered.
function nativeResults(build = 'native', filter = null) {
  const exe = join(root, `build/${build}/bench/ikpd_bench`);
  return existsSync(exe) ? nativeMedians(exe, { filter }) : {};
}

const ikpd = await init({ batch: true }); // every area (docs/loading.md, "Modules")
const rows = [];
const extra = {};
const skipped = [];
const native = nativeResults();
const nat = (name) => native.results?.[name];
const v3 = nativeResults('v3', 'Batch');
// A section whose solver is not available (yet) gives a row of dashes with the reason.
function section(name, run) {
  try {
    run();
  } catch (error) {
    skipped.push(`${name}: skipped (${error.message})`);
  }
}

// ------------------------------------------------------------ two-bone
section('two-bone IK (pole, soften, weight, reached)', () => {
  const options = { poleMode: 'point', soften: 0.05 };
  const p = makeTwoBoneProblems(N);
  const batch = new ikpd.TwoBoneBatch(N, options);
  for (const k of Object.keys(p)) batch.input[k].set(p[k]);
  const vec3 = (f, i) => [f[3 * i], f[3 * i + 1], f[3 * i + 2]];
  const quat = (f, i) => [f[4 * i], f[4 * i + 1], f[4 * i + 2], f[4 * i + 3]];
  const calls = Array.from({ length: N }, (_, i) => ({
    root: { position: vec3(p.rootPosition, i), rotation: quat(p.rootRotation, i) },
    mid: { position: vec3(p.midPosition, i), rotation: quat(p.midRotation, i) },
    end: { position: vec3(p.endPosition, i), rotation: quat(p.endRotation, i) },
    target: vec3(p.target, i), pole: vec3(p.pole, i), weight: p.weight[i], soften: 0.05,
  }));
  const out = Object.fromEntries(Object.entries(batch.output).map(([k, v]) => [k, new Float32Array(v.length)]));
  rows.push({
    name: 'two-bone IK (pole, soften, weight, reached)',
    native: nat('TwoBoneBatch'),
    batch: measure(() => batch.solve(), N),
    single: measure(() => { for (let i = 0; i < N; i++) ikpd.solveTwoBone(calls[i]); }, N),
    js: measure(() => { for (let i = 0; i < N; i++) solveTwoBoneJS(p, out, i, 0.05); }, N),
  });
  batch.dispose();
});

// ------------------------------------------------------------ aim
section('aim (yawPitch + pole roll)', () => {
  const p = makeAimProblems(N);
  const batch = new ikpd.AimBatch(N, { poleMode: 'point' });
  for (const k of Object.keys(p)) batch.input[k].set(p[k]);
  const calls = Array.from({ length: N }, (_, i) => ({
    position: [p.position[3 * i], p.position[3 * i + 1], p.position[3 * i + 2]],
    rotation: [p.rotation[4 * i], p.rotation[4 * i + 1], p.rotation[4 * i + 2], p.rotation[4 * i + 3]],
    target: [p.target[3 * i], p.target[3 * i + 1], p.target[3 * i + 2]],
    pole: [p.pole[3 * i], p.pole[3 * i + 1], p.pole[3 * i + 2]],
  }));
  const out = { rotation: new Float32Array(4 * N) };
  rows.push({
    name: 'aim (yawPitch + pole roll)',
    native: nat('AimBatch'),
    batch: measure(() => batch.solve(), N),
    single: measure(() => { for (let i = 0; i < N; i++) ikpd.solveAim(calls[i]); }, N),
    js: measure(() => { for (let i = 0; i < N; i++) solveAimJS(p, out, i); }, N),
  });
  batch.dispose();
});

// ------------------------------------------------------------ single-call paths
// One limb or joint per call, as a three.js user calls a solver, against the
// lean hand-written pure-JS two-bone solve (bench/js/lean_two_bone.js).
section('single-call paths', () => {
  const p = makeTwoBoneProblems(N);
  p.weight.fill(1);
  const vec3 = (f, i) => [f[3 * i], f[3 * i + 1], f[3 * i + 2]];
  const quat = (f, i) => [f[4 * i], f[4 * i + 1], f[4 * i + 2], f[4 * i + 3]];
  const frames = Array.from({ length: N }, (_, i) => ({
    root: { position: vec3(p.rootPosition, i), rotation: quat(p.rootRotation, i) },
    mid: { position: vec3(p.midPosition, i), rotation: quat(p.midRotation, i) },
    end: { position: vec3(p.endPosition, i), rotation: quat(p.endRotation, i) },
    target: vec3(p.target, i),
  }));
  // Object literals, as callers write them (objects built by spread get a map
  // each, which turns every option lookup of a packer megamorphic).
  const calls = frames.map((f, i) => ({ root: f.root, mid: f.mid, end: f.end, target: f.target, pole: vec3(p.pole, i) }));
  const lean = { rootRotation: new Float32Array(4 * N), midRotation: new Float32Array(4 * N), midPosition: new Float32Array(3 * N), endPosition: new Float32Array(3 * N) };
  // Raw floats: each item's 24 input floats packed as TwoBoneSolver.input expects.
  const packed = new Float32Array(24 * N);
  for (let i = 0; i < N; i++) {
    const f = frames[i];
    packed.set([...f.root.position, ...f.root.rotation, ...f.mid.position, ...f.mid.rotation, ...f.end.position, ...f.end.rotation, ...f.target], 24 * i);
  }
  const results = new Float32Array(23 * N);
  const solver = new ikpd.TwoBoneSolver();
  const reuse = ikpd.solveTwoBone(calls[0]);
  const t = {
    lean: measure(() => { for (let i = 0; i < N; i++) solveTwoBoneLean(p, lean, i); }, N),
    allocating: measure(() => { for (let i = 0; i < N; i++) ikpd.solveTwoBone(calls[i]); }, N),
    reuse: measure(() => { for (let i = 0; i < N; i++) ikpd.solveTwoBone(calls[i], reuse); }, N),
  };
  // The same calls with three.js math objects ({x, y, z}, {x, y, z, w}) instead of arrays.
  const v3 = (a) => new Vector3(a[0], a[1], a[2]);
  const joint3 = (j) => ({ position: v3(j.position), rotation: new Quaternion(j.rotation[0], j.rotation[1], j.rotation[2], j.rotation[3]) });
  const threeCalls = calls.map((c) => ({ root: joint3(c.root), mid: joint3(c.mid), end: joint3(c.end), target: v3(c.target), pole: v3(c.pole) }));
  t.reuseThree = measure(() => { for (let i = 0; i < N; i++) ikpd.solveTwoBone(threeCalls[i], reuse); }, N);
  // The pole changes per limb here: setOptions({ pole }) per call would be a
  // different workload, so the prepared rows use one pole for every limb.
  solver.setOptions({ pole: [0, 1, 0] });
  t.solverRaw = measure(() => {
    for (let i = 0; i < N; i++) {
      const input = solver.input;
      for (let k = 0, o = 24 * i; k < 24; k++) input[k] = packed[o + k];
      solver.run();
      const output = solver.output;
      for (let k = 0, o = 23 * i; k < 23; k++) results[o + k] = output[k];
    }
  }, N);
  t.solver = measure(() => { for (let i = 0; i < N; i++) solver.solve(frames[i]); }, N);
  solver.dispose();
  const ap = makeAimProblems(N);
  const aimFrames = Array.from({ length: N }, (_, i) => ({
    position: vec3(ap.position, i), rotation: quat(ap.rotation, i), target: vec3(ap.target, i),
  }));
  const aimSolver = new ikpd.AimSolver({ pole: [0, 1, 0] });
  const aimOut = { rotation: new Float32Array(4 * N) };
  t.aimSolver = measure(() => { for (let i = 0; i < N; i++) aimSolver.solve(aimFrames[i]); }, N);
  t.aimJs = measure(() => { for (let i = 0; i < N; i++) solveAimJS(ap, aimOut, i); }, N);
  aimSolver.dispose();
  // The same two in a process that runs nothing else (one input style through the readers).
  t.aimAlone = JSON.parse(execFileSync(process.execPath, [join(root, 'bench/js/aim_alone.js'), ...(quick ? ['--quick'] : [])], { encoding: 'utf8' }));
  extra.singleCall = t;
});

// ------------------------------------------------------------ Embind call cost
// A class method and a free function that do nothing but return a number,
// minus a JS call doing the same: the per-call cost of the Embind boundary.
// The library calls free functions through references taken from the module
// on their first call (web/src/ik/*.js, hdr/hdr.js), so `function` times that; the
// lookup on the module object on every call (`wasm.scratchPointer()`, a
// dictionary of hundreds of properties) is reported apart, for information.
// Each loop sums into its own local: one shared accumulator lets a later loop
// deoptimise an earlier one and inflate the baseline.
{
  const wasm = bindAllAreas(await createModule({ batch: true }));
  const handle = wasm.TwoBoneSolver.create();
  const scratchPointer = wasm.scratchPointer;
  const jsNumber = () => 1;
  let check = 0;
  const empty = measure(() => { let s = 0; for (let i = 0; i < N; i++) s += jsNumber(); check += s; }, N);
  extra.embind = {
    method: measure(() => { let s = 0; for (let i = 0; i < N; i++) s += handle.pointer(); check += s; }, N) - empty,
    function: measure(() => { let s = 0; for (let i = 0; i < N; i++) s += scratchPointer(); check += s; }, N) - empty,
    functionLookup: measure(() => { let s = 0; for (let i = 0; i < N; i++) s += wasm.scratchPointer(); check += s; }, N) - empty,
  };
  handle.delete();
  if (check === 0) console.log('');
}

// ------------------------------------------------------------ PD
section('PD updates', () => {
  const p = makePdProblems(N);
  const dt = 1 / 60;
  const gains = { kp: 100, kd: 20 };
  const scalar = new ikpd.PDBatch(N, gains);
  scalar.state.value.set(p.value);
  scalar.state.velocity.set(p.velocity);
  scalar.input.target.set(p.target);
  const pds = Array.from({ length: N }, (_, i) => new ikpd.PD({ ...gains, value: p.value[i], velocity: p.velocity[i] }));
  const targets = Array.from(p.target);
  const js = { value: Float32Array.from(p.value), velocity: Float32Array.from(p.velocity) };
  rows.push({
    name: 'PD update, scalar, exact',
    native: nat('PdBatch'),
    batch: measure(() => scalar.update(dt), N),
    single: measure(() => { for (let i = 0; i < N; i++) pds[i].update(dt, targets[i]); }, N),
    js: measure(() => updateScalarPdJS(js.value, js.velocity, p.target, N, gains.kp, gains.kd, dt), N),
  });
  scalar.dispose();
  pds.forEach((c) => c.dispose());

  const quat = new ikpd.QuatPDBatch(N, gains);
  quat.state.value.set(p.qValue);
  quat.state.velocity.set(p.qVelocity);
  quat.input.target.set(p.qTarget);
  const qpds = Array.from({ length: N }, (_, i) => new ikpd.QuatPD({ ...gains, value: Array.from(p.qValue.subarray(4 * i, 4 * i + 4)) }));
  const qTargets = Array.from({ length: N }, (_, i) => Array.from(p.qTarget.subarray(4 * i, 4 * i + 4)));
  const qjs = { value: Float32Array.from(p.qValue), velocity: Float32Array.from(p.qVelocity) };
  rows.push({
    name: 'PD update, quaternion, exact',
    native: nat('QuatPdBatch'),
    batch: measure(() => quat.update(dt), N),
    single: measure(() => { for (let i = 0; i < N; i++) qpds[i].update(dt, qTargets[i]); }, N),
    js: measure(() => updateQuatPdJS(qjs.value, qjs.velocity, p.qTarget, N, gains.kp, gains.kd, dt), N),
  });
  quat.dispose();
  qpds.forEach((c) => c.dispose());
});

// ------------------------------------------------------------ chains vs three.js
// An N-bone chain of 0.1-long bones straight along +Y, reset to that pose
// before every solve; targets at 20–95 % of the chain length. three.js's
// CCDIKSolver runs its usual 10 iterations; ikpd's solveChain stops at 1e-4 of
// the chain length (at most 200 iterations). Errors are relative to the chain length.
const percentile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
extra.chains = [];
for (const bones of [3, 10]) {
  const length = 0.1;
  const chainLength = bones * length;
  const targets = makeChainTargets(256, chainLength);
  const T = (i) => [targets[3 * i], targets[3 * i + 1], targets[3 * i + 2]];
  const entry = { bones };
  section(`three.js CCDIKSolver, ${bones} bones`, () => {
    const ccd = makeThreeCcd(bones, length, 10);
    const errors = Array.from({ length: 256 }, (_, i) => ccd.solve(...T(i)) / chainLength);
    entry.three = {
      ns: measure(() => { for (let i = 0; i < 256; i++) ccd.solve(...T(i)); }, 256),
      p50: percentile(errors, 0.5), p95: percentile(errors, 0.95), iterations: 10,
    };
  });
  for (const method of ['fabrik', 'ccd']) {
    section(`ikpd solveChain ${method}, ${bones} bones`, () => {
      const joints = Array.from({ length: bones + 1 }, (_, j) => ({ position: [0, j * length, 0], rotation: [0, 0, 0, 1] }));
      const calls = Array.from({ length: 256 }, (_, i) => ({ joints, target: T(i), method, iterations: 200, tolerance: 1e-4, forward: [0, 1, 0] }));
      const results = calls.map((c) => ikpd.solveChain(c));
      const errors = results.map((r) => r.distance / chainLength);
      const reuse = ikpd.solveChain(calls[0]);
      entry[method] = {
        native: nat(`Chain${method === 'fabrik' ? 'Fabrik' : 'Ccd'}/${bones}`),
        ns: measure(() => { for (let i = 0; i < 256; i++) ikpd.solveChain(calls[i]); }, 256),
        // The same calls filling one result in place (solveChain's optional second argument).
        reused: measure(() => { for (let i = 0; i < 256; i++) ikpd.solveChain(calls[i], reuse); }, 256),
        p50: percentile(errors, 0.5), p95: percentile(errors, 0.95),
        reached: results.filter((r) => r.reached).length / results.length,
        meanIterations: results.reduce((a, r) => a + r.iterations, 0) / results.length,
      };
    });
  }
  extra.chains.push(entry);
}

// ------------------------------------------------------------ crowd frame
// 10,000 characters × (4 two-bone limbs + a 5-joint look-at with quaternion
// PD), as three batches (bench/js/crowd.js).
section('crowd frame', () => {
  const characters = quick ? 2000 : 10000;
  const crowd = makeComposedCrowd(ikpd, characters);
  const nsPerCharacter = measure(() => crowd.frame(), characters);
  extra.crowd = { characters, msPerFrame10k: (nsPerCharacter * 10000) / 1e6, nsPerCharacter };
  crowd.dispose();
  // The same crowd as RigBatch characters: locals in and out, forward kinematics included.
  extra.crowd.rigBatch = benchRigBatch(ikpd, measure, characters);
  // 1,000 spring-bone avatars × 40 joints as one RigBatch, beside one Rig per avatar (bench/js/springs_crowd.js).
  extra.crowd.springs = benchSpringsCrowd(ikpd, measure);
});

// ------------------------------------------------------------ three.js rigs
// The helpers and IKRig on a humanoid's three.js bones, per character per frame.
section('three.js rigs', () => {
  extra.threeRig = benchThreeRig(ikpd, measure);
  const p = makeTwoBoneProblems(N);
  const lean = { rootRotation: new Float32Array(4 * N), midRotation: new Float32Array(4 * N), midPosition: new Float32Array(3 * N), endPosition: new Float32Array(3 * N) };
  extra.threeRig.lean = measure(() => { for (let i = 0; i < N; i++) solveTwoBoneLean(p, lean, i); }, N);
});

// ------------------------------------------------------------ grounding
// Two legs on a 10k-triangle terrain (three-mesh-bvh), per character per frame.
section('grounding (three.js)', () => {
  extra.grounding = benchGrounding(ikpd, measure);
});
// CesiumMan's walk through AnimationMixer with grounding, a look-at and a hand, next to the mixer alone.
extra.realCharacter = await benchRealCharacter(ikpd, measure);
extra.transitions = await benchTransitions(ikpd, measure);
extra.transitionsHumanoid = benchTransitionsHumanoid(ikpd, measure);
// 42 spring joints with two colliders: IKRig's springs beside three-vrm's VRMSpringBoneManager.
// Each side in its own fresh processes, alternated (bench/js/springs.js says why).
extra.springs = benchSprings();
// The same 42 joints from a VRM with one center and with three (one constraint per center), each in its own processes.
extra.springsParts = benchSpringsParts();

// ------------------------------------------------------------ size and start-up
{
  // The modules that were core, load-wasm, ik, pd, chain, hdr and batch.js before web/src had a folder per area.
  const modules = ['core', 'readers', 'load-wasm', 'ik/aim', 'ik/twoBone', 'ik/localRotations', 'pd/pd', 'ik/chain', 'ik/pseudoThreeBone', 'ik/tentacle', 'rig/lookAt', 'rig/smoothedRig', 'hdr/hdr', 'batch/batch'];
  const wrappers = ['web/index.js', ...modules.map((m) => `web/src/${m}.js`)]
    .filter((f) => existsSync(join(root, f)))
    .map((f) => readFileSync(join(root, f)));
  const gz = (b) => gzipSync(b, { level: 9 }).length;
  // Fresh Node processes, alternating the default module and the one with every area.
  const startups = { default: [], batch: [] };
  for (let k = 0; k < (quick ? 3 : 9); k++) {
    for (const [name, flags] of [['default', []], ['batch', ['--batch']]]) {
      const line = execFileSync(process.execPath, [join(root, 'bench/startup.mjs'), ...flags], { encoding: 'utf8' });
      startups[name].push(JSON.parse(line.trim().split('\n').pop()));
    }
  }
  // Each module's .wasm and glue (docs/loading.md, "Modules").
  extra.size = {
    modules: Object.fromEntries(['ikpd', 'ikpd-rig', 'ikpd-batch'].map((name) => {
      const wasm = readFileSync(join(root, `web/lib/${name}.wasm`)), glue = readFileSync(join(root, `web/lib/${name}.mjs`));
      return [name, { wasmBytes: wasm.length, wasmGzip: gz(wasm), glueBytes: glue.length, glueGzip: gz(glue) }];
    })),
    wrappersGzip: gz(Buffer.concat(wrappers)),
  };
  const startupOf = (samples) => Object.fromEntries(['initMs', 'importMs', 'firstCallMs', 'otherAreasMs'].map((k) => [k, median(samples.map((s) => s[k]))]));
  extra.startup = { default: startupOf(startups.default), batch: startupOf(startups.batch) };
}

// ------------------------------------------------------------ report
printTable(rows);
printChains(extra.chains);
// The native two-bone kernel's #29 figures: op counts, FP-throughput limit, before #29, ozz (bench/js/kernel.js).
extra.kernel = benchKernel(root, { reps: REPS });
skipped.push(...extra.kernel.skipped);
console.log('');
for (const line of kernelLines(extra.kernel)) console.log(line);
for (const line of skipped) console.log(line);
{
  const [one, two] = [1, 2].map((t) => nat(`TwoBoneBatchThreads/${t}/real_time`));
  if (one && two) {
    console.log(`\nnative two-bone batch of 40,000 limbs split with batch::Slice: 1 thread ${fmt(one)}, 2 threads ${fmt(two)} per limb = ${(one / two).toFixed(2)}× (wall time; needs an otherwise idle machine)`);
    extra.threads = { one, two };
  }
}
{
  // Same-run ratio of one threaded module at 1 and 2 threads (bench/js/threads.js).
  const t = await benchWasmThreads({ reps: REPS, minMs: MIN_MS });
  console.log(`\nWASM two-bone batch of 40,000 limbs, threaded module (init({ threads: 2 })): 1 thread ${t.one.toFixed(2)} ms, ` +
    `2 threads ${t.two.toFixed(2)} ms = ${t.ratio.toFixed(2)}× (wall time; needs an otherwise idle machine); model T(n) = c·N/n + s: ` +
    `c ${t.perLimbNs.toFixed(1)} ns per limb, s ${(t.syncMs * 1000).toFixed(0)} µs → 2 threads ${t.predictedTwo.toFixed(2)} ms predicted; ` +
    `init({ threads: 2 }) ${t.initMs.toFixed(1)} ms in a fresh Node process`);
  console.log(`WASM crowd frame as one RigBatch of ${t.crowd.characters.toLocaleString('en')} characters, threaded module: ` +
    `1 thread ${t.crowd.one.toFixed(2)} ms, 2 threads ${t.crowd.two.toFixed(2)} ms = ${t.crowd.ratio.toFixed(2)}× (wall time)`);
  console.log(`WASM crowd frame as three batches (bench/js/crowd.js) of ${t.composed.characters.toLocaleString('en')} characters, threaded module: ` +
    `1 thread ${t.composed.one.toFixed(2)} ms, 2 threads ${t.composed.two.toFixed(2)} ms = ${t.composed.ratio.toFixed(2)}× (wall time)`);
  const sc = extra.crowd?.springs, vrm = extra.springs?.threeVrm;
  console.log(`WASM springs crowd as one RigBatch of ${t.springs.avatars.toLocaleString('en')} avatars × 40 joints (inputs written each frame), threaded module: ` +
    `1 thread ${t.springs.one.toFixed(2)} ms, 2 threads ${t.springs.two.toFixed(2)} ms per crowd frame = ${t.springs.ratio.toFixed(2)}× (wall time); ` +
    `per avatar ${(t.springs.one * 1e3 / t.springs.avatars).toFixed(2)} / ${(t.springs.two * 1e3 / t.springs.avatars).toFixed(2)} µs` +
    (sc ? `; one Rig at a time ${(sc.rig / 1e3).toFixed(2)} µs per avatar` : '') +
    (vrm ? `; three-vrm ${(vrm / 1e3).toFixed(2)} µs per avatar (42 joints, springs row)` : ''));
  extra.wasmThreads = t;
}
if (v3.results) {
  const line = ['TwoBoneBatch', 'AimBatch', 'QuatPdBatch'].map((n) => `${n} ${fmt(v3.results[n])} (${ratio(v3.results[n], nat(n))} the SSE2 build)`);
  console.log(`\nnative x86-64-v3 build (AVX2, 8-wide lanes, bit-identical results): ${line.join(', ')}`);
  extra.v3 = v3.results;
}
printExtras(extra);
const machine = `${cpus()[0]?.model ?? 'unknown CPU'} × ${cpus().length}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
console.log(`machine: ${machine}; ${new Date().toISOString()}; ${REPS} repetitions`);
mkdirSync(join(root, 'build'), { recursive: true });
writeFileSync(join(root, 'build/bench-results.json'), JSON.stringify({ date: new Date().toISOString(), machine, rows, skipped, ...extra, nativeContext: native.context }, null, 2));
