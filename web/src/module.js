// Loading a WebAssembly module (web/lib/: the one the options ask for): its .wasm next to its glue by default.
import { readBoolean, readNumber, readOptions } from './readers.js';
import { checkOptionNames, nameSet } from './options.js';
import { compileWasm } from './load-wasm.js';
import { warnOnce } from './dev.js';
import { bindArea } from './core.js';

/**
 * The single-threaded modules (web/lib/), each the one before plus an area
 * (docs/loading.md, "Modules"): init() loads the first that has every area
 * asked for. `glue` and `wasm` are written out per module so that bundlers
 * see each file: an app's bundle holds the glue of the modules it can load,
 * each in its own chunk, and fetches only the one it loads.
 */
export const MODULES = /* @__PURE__ */ Object.freeze([
  Object.freeze({
    name: 'ikpd', areas: Object.freeze(['ik', 'pd', 'hdr']),
    glue: () => import('../lib/ikpd.mjs'), wasm: () => new URL('../lib/ikpd.wasm', import.meta.url),
  }),
  Object.freeze({
    name: 'ikpd-rig', areas: Object.freeze(['ik', 'pd', 'hdr', 'rig']),
    glue: () => import('../lib/ikpd-rig.mjs'), wasm: () => new URL('../lib/ikpd-rig.wasm', import.meta.url),
  }),
  Object.freeze({
    name: 'ikpd-batch', areas: Object.freeze(['ik', 'pd', 'hdr', 'rig', 'batch']),
    glue: () => import('../lib/ikpd-batch.mjs'), wasm: () => new URL('../lib/ikpd-batch.wasm', import.meta.url),
  }),
]);

/** The threaded module's name and areas (all of them; web/src/threads.js). */
export const THREADS_MODULE = /* @__PURE__ */ Object.freeze({ name: 'ikpd-threads', areas: MODULES[2].areas });

/**
 * What init(`options`) loads, from its options (checked here: a TypeError or
 * RangeError naming the option): `module`, one of MODULES, and `threads`, the
 * threads asked for (above 1: the threaded module where it can run, `module`
 * where not). `level` orders them: an earlier load of a level at least as
 * high serves a later init() (web/index.js).
 */
export function moduleFor(options = {}) {
  checkOptionNames(readOptions(options), INIT_NAMES, 'init');
  const threads = options.threads === undefined ? 1 : readNumber(options.threads, 'threads', { min: 1, max: MAX_THREADS, integer: true });
  const rig = options.rig !== undefined && readBoolean(options.rig, 'rig');
  const batch = options.batch !== undefined && readBoolean(options.batch, 'batch');
  if (threads > 1 && options.wasm !== undefined) {
    throw new TypeError('threads: init({ threads }) loads the threaded module shipped with ikpd; it cannot be combined with init({ wasm })');
  }
  // Threads split batches: where they cannot run, the module with batches.
  const level = threads > 1 || batch ? 2 : rig ? 1 : 0;
  return { module: MODULES[level], threads, level: threads > 1 ? 3 : level };
}

/**
 * The Emscripten module (the Embind bindings), instantiated from the compiled
 * .wasm through its instantiateWasm hook; `options` as for init(). Used by
 * init() and by tools that need the raw bindings (tests, benchmarks).
 * With `threads` above 1, the threaded module where it can run
 * (web/src/threads.js); its `ikpdThreads` is the number of threads. Its
 * `ikpdModule` is the module loaded: `{ name, areas }`.
 */
export async function createModule(options = {}) {
  const { module, threads } = moduleFor(options); // async: bad options reject, as a failed load does
  const env = environment();
  if (threads > 1 && threadsAvailable(threads, env)) {
    const { createThreadsModule } = await import('./threads.js');
    const wasm = await createThreadsModule(threads, env, compileWasm);
    wasm.ikpdModule = THREADS_MODULE;
    return wasm;
  }
  const wasm = await createSingleThreaded(module, options);
  wasm.ikpdModule = { name: module.name, areas: module.areas };
  return wasm;
}

/**
 * Registers every area's bindings on `wasm` and returns it, for tools that
 * call the raw bindings (tests, benchmarks); the API binds an area the first
 * time it is used (web/src/core.js Core.area).
 */
export function bindAllAreas(wasm) {
  bindArea(wasm, '*');
  return wasm;
}

/** What decides whether threads can run: Node, SharedArrayBuffer, crossOriginIsolated. */
export const environment = () => ({
  node: typeof process === 'object' && typeof process.versions?.node === 'string',
  sharedMemory: typeof SharedArrayBuffer === 'function',
  crossOriginIsolated: globalThis.crossOriginIsolated === true,
});

/** Why the threaded module cannot run in `env` ('not cross-origin isolated', ...), or undefined where it can. */
export function threadsUnavailable(env) {
  if (env.node) return undefined;
  if (!env.sharedMemory) return 'no SharedArrayBuffer';
  if (!env.crossOriginIsolated) return 'not cross-origin isolated';
  return undefined;
}

/** Whether init({ threads }) can load the threaded module in `env`; where not, warns once in development. */
export function threadsAvailable(threads, env) {
  const reason = threadsUnavailable(env);
  if (reason === undefined) return true;
  warnOnce('threads-off', `ikpd: init({ threads: ${threads} }) runs on one thread: ${reason}. ` +
    'Threads need shared memory: a page served with the headers Cross-Origin-Opener-Policy: same-origin and ' +
    'Cross-Origin-Embedder-Policy: require-corp (docs/batch/batches.md, "Threads in WebAssembly"). Shown once, in development builds only.');
  return false;
}

async function createSingleThreaded(which, options) {
  const [{ default: createIkpdModule }, module] = await Promise.all([which.glue(), compileWasm(options.wasm ?? which.wasm(), 'wasm')]);
  return new Promise((resolve, reject) => {
    checkModule(module, which);
    createIkpdModule({
      instantiateWasm(imports, receiveInstance) {
        // receiveInstance throws for a module the glue cannot use: that error
        // rejects init() (in the same chain), rather than escaping as an
        // unhandled rejection while init() stays pending.
        WebAssembly.instantiate(module, imports)
          .then((wasmInstance) => receiveInstance(wasmInstance, module))
          .catch((error) => reject(notIkpd(error, which)));
        return {};
      },
    }).then(resolve, reject);
  });
}

// A valid WebAssembly module that is not the one the glue belongs to is
// rejected before the glue sees it (an Embind glue may even instantiate
// another module's .wasm, its imports being minified names): each module
// lists its areas in an "ikpd.areas" custom section (cpp/bindings/conventions.h
// IKPD_BINDINGS: an area once per block), which must be `which`'s.
function checkModule(module, which) {
  const [section] = WebAssembly.Module.customSections(module, 'ikpd.areas');
  if (section === undefined) throw new TypeError('wasm: not ikpd\'s WebAssembly module (it has no ikpd.areas section)');
  const areas = [...new Set(new TextDecoder().decode(section).split('\0').filter(Boolean))];
  const other = MODULES.find((m) => m.areas.length === areas.length && m.areas.every((area) => areas.includes(area)));
  if (other === which) return;
  throw new TypeError(`wasm: this is the .wasm of ${other ? other.name : 'a module'} (${areas.join(', ')}), not of ${which.name}, ` +
    `the module init()'s options ask for (${which.areas.join(', ')})` +
    (other ? `; load it with init({ ${optionsOf(other)}wasm })` : ''));
}

// The init() option that loads `module` (its last area's flag), for messages: 'rig: true, ', or ''.
const optionsOf = (module) => (module === MODULES[0] ? '' : `${module.areas.at(-1)}: true, `);

function notIkpd(error, which) {
  const reason = error instanceof Error ? error.message : String(error);
  return new TypeError(`wasm: the WebAssembly module does not fit ikpd's glue (web/lib/${which.name}.mjs): ${reason}`, { cause: error });
}

const INIT_NAMES = nameSet('wasm', 'threads', 'rig', 'batch');
/** Most threads init({ threads }) takes (cpp/bindings/batch/pool.h, kMaxThreads). */
const MAX_THREADS = 16;

