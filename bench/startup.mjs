// Measures `await init()` in a fresh Node process and prints JSON:
//   importMs        module import (web/index.js and the Emscripten glue)
//   initMs          await init(): the parts below together
//   compileMs       WebAssembly.compile of ikpd.wasm (file read before it excluded)
//   instantiateMs   WebAssembly.instantiate (imports bound, memory created)
//   registerMs      Embind registrations (the module's static constructors)
//   apiMs           the rest: the JS API built over the bindings (classes
//                   made over the job descriptions of web/src/<area>/described.js)
//   firstCallMs     after init: the first solveTwoBone, which binds the ik
//                   area (docs/loading.md, "Start-up")
//   otherAreasMs    then one first use of each other area of the module (a
//                   QuatPD, an HDR buffer, a LookAt with --rig or --batch, a
//                   TwoBoneBatch with --batch), which binds them
// The phases are timed by wrapping WebAssembly.compile / instantiate and the
// module's Embind registration imports (the last call); `--runs N` starts N fresh processes
// and prints the median of each field. `--rig` / `--batch`: init({ rig: true })
// / init({ batch: true }) instead of init() (docs/loading.md, "Modules").
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const runs = Number(process.argv[process.argv.indexOf('--runs') + 1] || 0);
const flags = ['--rig', '--batch'].filter((flag) => process.argv.includes(flag));
if (process.argv.includes('--runs')) {
  const samples = Array.from({ length: runs }, () =>
    JSON.parse(execFileSync(process.execPath, [fileURLToPath(import.meta.url), ...flags], { encoding: 'utf8' })));
  const median = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    const m = s.length >> 1;
    return s.length % 2 ? s[m] : 0.5 * (s[m - 1] + s[m]);
  };
  const out = Object.fromEntries(Object.keys(samples[0]).map((k) => [k, +median(samples.map((r) => r[k])).toFixed(2)]));
  console.log(JSON.stringify({ runs, median: out }));
} else {
  const marks = {};
  const now = () => performance.now();
  const { compile, instantiate } = WebAssembly;
  WebAssembly.compile = async (...args) => {
    const t = now();
    const module = await compile(...args);
    marks.compile = now() - t;
    return module;
  };
  WebAssembly.instantiate = async (module, imports) => {
    // Embind's registration imports (__embind_register_*, named so in the
    // glue) stamp the clock: the static constructors call them right after
    // instantiation.
    const stamped = {};
    for (const [space, fields] of Object.entries(imports)) {
      stamped[space] = Object.fromEntries(Object.entries(fields).map(([name, value]) => [name,
        typeof value === 'function' && value.name.startsWith('__embind_register')
          ? function (...a) { marks.lastImport = now(); return value.apply(this, a); } : value]));
    }
    const t = now();
    const result = await instantiate(module, stamped);
    marks.instantiated = now();
    marks.instantiate = marks.instantiated - t;
    return result;
  };
  const t0 = now();
  const { init } = await import('../web/index.js');
  const t1 = now();
  const ikpd = await init({ rig: flags.includes('--rig'), batch: flags.includes('--batch') });
  const t2 = now();
  const registeredAt = marks.lastImport; // the first uses below register more
  const registerMs = registeredAt - marks.instantiated;
  const joint = (x) => ({ position: [x, 0, 0] });
  ikpd.solveTwoBone({ root: joint(0), mid: joint(1), end: joint(2), target: [1, 1, 0] });
  const t3 = now();
  new ikpd.QuatPD().dispose();
  ikpd.hdr.createBuffer(4, 4).dispose();
  if (ikpd.areas.includes('rig')) new ikpd.LookAt({ weights: [0.5, 1] }).dispose();
  if (ikpd.areas.includes('batch')) new ikpd.TwoBoneBatch(8).dispose();
  const t4 = now();
  console.log(JSON.stringify({
    importMs: t1 - t0, initMs: t2 - t1, compileMs: marks.compile, instantiateMs: marks.instantiate, registerMs,
    apiMs: t2 - registeredAt, firstCallMs: t3 - t2, otherAreasMs: t4 - t3,
  }));
}
