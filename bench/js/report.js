// The printed part of `npm run bench`'s report (bench/run.mjs): the solver
// table, the chains against three.js, and the lines of the figures measured
// apart (single-call paths, crowd frame, three.js rigs, grounding, the real
// character, size, Embind call cost, start-up). Not shipped.

/** ns as "12.3 ns" or "1.23 µs"; '—' when not measured. */
export const fmt = (x) => (x === undefined ? '—' : x >= 1000 ? `${(x / 1000).toFixed(2)} µs` : `${x.toFixed(1)} ns`);
/** a / b as "1.23×"; '—' when either is not measured. */
export const ratio = (a, b) => (a === undefined || b === undefined ? '—' : `${(a / b).toFixed(2)}×`);

/** The solver table: one row per solver, native, WASM batch and single call, pure JS. */
export function printTable(rows) {
  const table = [
    ['solver (ns per solve, median)', 'native C++', 'WASM batch', 'WASM single call', 'pure JS', 'WASM batch / native', 'JS / WASM batch'],
    ...rows.map((r) => [r.name, fmt(r.native), fmt(r.batch), fmt(r.single), fmt(r.js), ratio(r.batch, r.native), ratio(r.js, r.batch)]),
  ];
  const widths = table[0].map((_, c) => Math.max(...table.map((row) => String(row[c]).length)));
  const line = (row) => `| ${row.map((cell, c) => String(cell).padEnd(widths[c])).join(' | ')} |`;
  console.log(line(table[0]));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const row of table.slice(1)) console.log(line(row));
}

/** The chains against three.js's CCDIKSolver (µs per solve and the error percentiles). */
export function printChains(chains) {
  if (!chains.length) return;
  console.log('\nchains (µs per solve incl. JS API; error = |tip − target| / chain length):');
  for (const c of chains) {
    const t = c.three;
    const part = (name, r) => (r ? `${name} ${fmt(r.ns)}${r.reused ? ` (result reused ${fmt(r.reused)})` : ''}${r.native ? ` (native ${fmt(r.native)})` : ''} (p50 ${r.p50.toExponential(1)}, p95 ${r.p95.toExponential(1)}${r.reached !== undefined ? `, ${(100 * r.reached).toFixed(0)} % reached, ${r.meanIterations.toFixed(1)} iterations` : ''})` : null);
    const speedups = ['fabrik', 'ccd'].filter((m) => c[m] && t).map((m) => `three/${m} ${ratio(t.ns, c[m].ns)}${c[m].native ? ` (three/native ${ratio(t.ns, c[m].native)})` : ''}`);
    console.log(`  ${c.bones} bones: ${[part('three CCDIKSolver (10 it.)', t), part('ikpd fabrik', c.fabrik), part('ikpd ccd', c.ccd)].filter(Boolean).join('; ')}${speedups.length ? `; speed-up ${speedups.join(', ')}` : ''}`);
  }
}

/** The figures measured apart, each when it was measured. */
export function printExtras(extra) {
  if (extra.singleCall) {
    const t = extra.singleCall;
    console.log('\nsingle-call paths (ns per solve; ratio to the lean pure-JS two-bone solve):');
    for (const [name, key] of [['lean pure-JS two-bone (yardstick)', 'lean'], ['solveTwoBone(options)', 'allocating'],
      ['solveTwoBone(options, result)', 'reuse'], ['solveTwoBone(Vector3/Quaternion, result)', 'reuseThree'],
      ['TwoBoneSolver.solve(frame)', 'solver'], ['TwoBoneSolver input/run()/output', 'solverRaw']]) {
      console.log(`  ${name.padEnd(42)} ${fmt(t[key]).padStart(9)}  ${ratio(t[key], t.lean)}`);
    }
    console.log(`  AimSolver.solve(frame) ${fmt(t.aimSolver)} vs pure-JS aim port ${fmt(t.aimJs)} (${ratio(t.aimSolver, t.aimJs)}); ` +
      `in a process that runs only these two ${fmt(t.aimAlone.aimSolver)} vs ${fmt(t.aimAlone.aimJs)} (${ratio(t.aimAlone.aimSolver, t.aimAlone.aimJs)})`);
  }
  if (extra.crowd) {
    console.log(`\ncrowd: 10,000 characters × (4 two-bone + 5-joint look-at with quaternion PD): ${extra.crowd.msPerFrame10k.toFixed(2)} ms per frame (WASM batches, one core; measured with ${extra.crowd.characters} characters)`);
    const rb = extra.crowd.rigBatch;
    if (rb) {
      console.log(`  RigBatch.update (locals in and out, FK included): ${((rb.batch * 10000) / 1e6).toFixed(2)} ms per 10,000 (${fmt(rb.batch)} per character; ${ratio(rb.batch, extra.crowd.nsPerCharacter)} the three batches)`);
      console.log(`  Rig.update per character: ${fmt(rb.rig)} (RigBatch: ${ratio(rb.batch, rb.rig)})`);
    }
    const sc = extra.crowd.springs;
    if (sc) {
      const vrm = extra.springs?.threeVrm;
      console.log(`  springs crowd, ${sc.avatars.toLocaleString('en')} avatars × ${sc.joints} spring joints (one RigBatch, one thread, inputs written each frame): ` +
        `${((sc.batch * sc.avatars) / 1e6).toFixed(2)} ms per crowd frame (${fmt(sc.batch)} per avatar); one Rig at a time ${fmt(sc.rig)} per avatar ` +
        `(RigBatch: ${ratio(sc.batch, sc.rig)})` + (vrm ? `; three-vrm ${fmt(vrm)} per avatar of 42 joints (springs row)` : ''));
    }
  }
  if (extra.threeRig) {
    const r = extra.threeRig;
    console.log('\nthree.js rigs (per character per frame, reading and writing three.js bones; ratio to the lean pure-JS two-bone solve):');
    for (const [name, key] of [['lean pure-JS two-bone (yardstick)', 'lean'], ['TwoBoneIK.update() (one limb)', 'twoBoneIK'],
      ['IKRig, one two-bone constraint', 'rigTwoBone'], ['IKRig humanoid (4 limbs, 6-joint look-at, 2 eyes)', 'rigHumanoid'],
      ['the same through 7 helpers', 'helpersHumanoid']]) {
      console.log(`  ${name.padEnd(52)} ${fmt(r[key]).padStart(9)}  ${ratio(r[key], r.lean)}`);
    }
    console.log(`  humanoid: helpers / IKRig ${ratio(r.helpersHumanoid, r.rigHumanoid)}`);
    console.log(`  avatar frame on the humanoid, three.js bones read and written: AvatarIK.update ${fmt(r.avatarIK)} (target ≤ 8 µs), IKRig avatar ${fmt(r.rigAvatar)}`);
    console.log(`  full-body look-at: BodyLookAt.update ${fmt(r.bodyLookAt)}, BodyLookAtIK.update ${fmt(r.bodyLookAtIK)}, IKRig bodyLookAt ${fmt(r.rigBodyLookAt)}`);
    console.log(`  10-bone chain: ChainIK.update ${fmt(r.chainIK)} = ${ratio(r.chainIK, r.chainSolver)} ChainSolver.solve ${fmt(r.chainSolver)}`);
  }
  if (extra.grounding) {
    const g = extra.grounding;
    console.log(`\ngrounding, two legs on a ${g.triangles}-triangle terrain (three-mesh-bvh), per character per frame: IKRig.update ${fmt(g.rig)} (target ≤ 10 µs), of which the two raycasts ${fmt(g.raycasts)}`);
  }
  if (extra.realCharacter) {
    const r = extra.realCharacter;
    console.log(`\nreal character (CesiumMan, its walk through AnimationMixer), per frame: mixer.update ${fmt(r.mixer)}; with IKRig (grounding over bumps, a 4-joint look-at, a hand on a cup) ${fmt(r.frame)}: IK adds ${fmt(r.frame - r.mixer)} (${ratio(r.frame - r.mixer, r.mixer)} the mixer)`);
  }
  if (extra.transitions) {
    const r = extra.transitions;
    console.log(`inertialized transitions (the Fox, ${r.bones} bones, Walk → Run → Survey every 0.25 s), per frame: mixer.update ${fmt(r.mixer)}; with Inertializer.update ${fmt(r.frame)}: it adds ${fmt(r.frame - r.mixer)} (${ratio(r.frame - r.mixer, r.mixer)} the mixer); never switching ${fmt(r.update)}`);
  }
  if (extra.transitionsHumanoid) {
    const r = extra.transitionsHumanoid;
    console.log(`inertialized transitions (the built-in humanoid, ${r.bones} bones, Idle → Walk → Run swings every 0.25 s), per frame: mixer.update ${fmt(r.mixer)}; with Inertializer.update ${fmt(r.frame)}: it adds ${fmt(r.frame - r.mixer)} (${ratio(r.frame - r.mixer, r.mixer)} the mixer)`);
  }
  if (extra.springs) {
    const r = extra.springs;
    console.log(`spring bones (${r.joints} joints in 7 chains, a sphere and a capsule), per character frame: IKRig springs ${fmt(r.ikpd)}, three-vrm VRMSpringBoneManager.update ${fmt(r.threeVrm)}: ${ratio(r.threeVrm, r.ikpd)} faster (target ≥ 10×; each side in its own fresh processes, alternated, median of ${r.runs?.ikpd.length ?? 1} each)`);
  }
  if (extra.springsParts) {
    const r = extra.springsParts;
    console.log(`spring bones from a VRM (${r.joints} joints), per character frame: one center ${fmt(r.one)}, three centers (${r.parts} constraints) ${fmt(r.three)}: ${ratio(r.three, r.one)}`);
  }
  const kb = (b) => `${(b / 1024).toFixed(1)} KiB`;
  const s = extra.size;
  console.log('\nsize (.wasm + its Emscripten glue; init() loads ikpd, init({ rig }) ikpd-rig, init({ batch }) ikpd-batch):');
  for (const [name, m] of Object.entries(s.modules)) {
    console.log(`  ${name.padEnd(11)} ${kb(m.wasmBytes)} + ${kb(m.glueBytes)}, gzipped ${kb(m.wasmGzip)} + ${kb(m.glueGzip)} = ${kb(m.wasmGzip + m.glueGzip)} (${(m.wasmGzip + m.glueGzip).toLocaleString('en')} bytes)`);
  }
  console.log(`  JS wrappers ${kb(s.wrappersGzip)} gzipped`);
  if (extra.embind) {
    const e = extra.embind;
    console.log(`Embind per-call cost: class method ${fmt(e.method)}, free function ${fmt(e.function)} (cached reference, as the library calls it; looked up on the module every call: ${fmt(e.functionLookup)}) (minus a JS call)`);
  }
  for (const [name, call] of [['default', 'init()'], ['batch', 'init({ batch: true })']]) {
    const u = extra.startup[name];
    console.log(`start-up: await ${call} ${u.initMs.toFixed(1)} ms (import ${u.importMs.toFixed(1)} ms) in a fresh Node ${process.version} process, median; ` +
      `areas bound on first use: then the first solveTwoBone ${u.firstCallMs.toFixed(1)} ms, a first use of every other area ${u.otherAreasMs.toFixed(1)} ms`);
  }
}
