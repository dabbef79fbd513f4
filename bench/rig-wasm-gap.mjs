// The humanoid IKRig frame of bench/js/three_rig.js (rigHumanoid) in two
// parts, for builds of web/ side by side: the whole `rig.update(1/60)` and the
// WASM core's call alone (the core `Rig.update`, the same inputs each frame);
// each build in its own Node process, the builds alternating round by round,
// the median of the rounds; the native `RigHumanoid` row beside them. Build a
// variant into another folder with -DIKPD_WASM_OUT_DIR=<copy of web>/lib (and
// --profiling-funcs in CMAKE_EXE_LINKER_FLAGS for `node --cpu-prof`). Not
// shipped; not part of `npm run bench`.
// --look-at: the humanoid's look-at alone (native: RigLookAt).
//   node bench/rig-wasm-gap.mjs [--rounds 6] [--no-native] [--look-at] name=path/to/web ...   (default: web=web)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { median, measure, nativeMedians } from './js/measure.js';
import { SPINE, addHumanoid, targets, wiggle } from './js/three_rig.js';
import { buildHumanoid } from '../tests/support/three-humanoid.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);

// One build (`--child path/to/web [--look-at]`): prints { row, core } in ns per frame.
async function child(web, lookAtOnly) {
  const { init } = await import(pathToFileURL(join(web, 'index.js')).href);
  const { IKRig } = await import(pathToFileURL(join(web, 'three/index.js')).href);
  const ikpd = await init({ rig: true });
  const t = targets();
  const rig = new IKRig(ikpd, buildHumanoid().scene);
  if (lookAtOnly) rig.add('lookAt', { bones: SPINE, target: t.look, eyes: [] });
  else addHumanoid(rig, t);
  let frame = 0;
  const row = measure(() => { wiggle(t, frame++); rig.update(1 / 60); }, 1);
  const core = rig._core; // the ikpd.Rig the helper drives (bench only)
  return { row, core: measure(() => core.update(1 / 60), 1) };
}

if (args[0] === '--child') {
  console.log(JSON.stringify(await child(resolve(args[1]), args.includes('--look-at'))));
  process.exit(0);
}

let rounds = 6;
const builds = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--rounds') rounds = Number(args[++i]);
  else if (!args[i].startsWith('--')) {
    const [name, path] = args[i].split('=');
    builds.push({ name, path });
  }
}
if (builds.length === 0) builds.push({ name: 'web', path: join(root, 'web') });
const results = Object.fromEntries(builds.map((b) => [b.name, { row: [], core: [] }]));
for (let r = 0; r < rounds; r++) {
  for (const b of r % 2 ? [...builds].reverse() : builds) {
    const o = JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--child', b.path, ...args.filter((a) => a === '--look-at')], { encoding: 'utf8' }));
    results[b.name].row.push(o.row);
    results[b.name].core.push(o.core);
  }
}
const base = results[builds[0].name];
for (const b of builds) {
  const m = results[b.name];
  const line = (k) => `${median(m[k]).toFixed(0)} ns (${m[k].map((x) => x.toFixed(0)).join(' ')})` +
    (b === builds[0] ? '' : `, ${(median(m[k]) / median(base[k])).toFixed(3)}x ${builds[0].name}`);
  console.log(`${b.name}: core ${line('core')}; row ${line('row')}`);
}
const exe = join(root, 'build/native/bench/ikpd_bench');
if (existsSync(exe) && !args.includes('--no-native')) {
  const name = args.includes('--look-at') ? 'RigLookAt' : 'RigHumanoid';
  const n = nativeMedians(exe, { filter: `${name}$`, reps: 5 });
  console.log(`native ${name}: ${Object.values(n.results).map((x) => x.toFixed(0)).join(' ')} ns`);
}
