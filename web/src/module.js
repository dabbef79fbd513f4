// Loading the WebAssembly module: the .wasm next to the glue by default.
import createIkpdModule from '../lib/ikpd.mjs';
import { readNumber, readOptions } from './readers.js';
import { checkOptionNames, nameSet } from './options.js';
import { compileWasm } from './load-wasm.js';
import { warnOnce } from './dev.js';
import { bindArea } from './core.js';

/**
 * The Emscripten module (the Embind bindings), instantiated from the compiled
 * .wasm through its instantiateWasm hook; `options` as for init(). Used by
 * init() and by tools that need the raw bindings (tests, benchmarks).
 * With `threads` above 1, the threaded module where it can run
 * (web/src/threads.js); its `ikpdThreads` is the number of threads.
 */
export async function createModule(options = {}) {
  const threads = checkOptions(options); // async: bad options reject, as a failed load does
  if (threads === 1) return createSingleThreaded(options);
  const env = environment();
  if (!threadsAvailable(threads, env)) return createSingleThreaded(options);
  const { createThreadsModule } = await import('./threads.js');
  return createThreadsModule(threads, env, compileWasm);
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

function createSingleThreaded(options) {
  return compile(options).then((module) => new Promise((resolve, reject) => {
    checkExports(module);
    createIkpdModule({
      instantiateWasm(imports, receiveInstance) {
        // receiveInstance throws for a module the glue cannot use: that error
        // rejects init() (in the same chain), rather than escaping as an
        // unhandled rejection while init() stays pending.
        WebAssembly.instantiate(module, imports)
          .then((wasmInstance) => receiveInstance(wasmInstance, module))
          .catch((error) => reject(notIkpd(error)));
        return {};
      },
    }).then(resolve, reject);
  }));
}

// A valid WebAssembly module that is not ikpd's (another library's .wasm)
// is rejected before the glue sees it: ikpd's exports its memory and its
// function table (their names are minified, their kinds are not).
function checkExports(module) {
  const kinds = new Set(WebAssembly.Module.exports(module).map((e) => e.kind));
  const missing = ['memory', 'table'].filter((kind) => !kinds.has(kind));
  if (missing.length > 0) {
    throw new TypeError(`wasm: not ikpd's WebAssembly module (it exports no ${missing.join(' and no ')})`);
  }
}

function notIkpd(error) {
  const reason = error instanceof Error ? error.message : String(error);
  return new TypeError(`wasm: the WebAssembly module does not fit ikpd's glue (web/lib/ikpd.mjs): ${reason}`, { cause: error });
}

const INIT_NAMES = nameSet('wasm', 'threads');
/** Most threads init({ threads }) takes (cpp/bindings/batch/pool.h, kMaxThreads). */
const MAX_THREADS = 16;

// Checks init()'s options and returns the threads asked for.
function checkOptions(options) {
  checkOptionNames(readOptions(options), INIT_NAMES, 'init');
  const threads = options.threads === undefined ? 1 : readNumber(options.threads, 'threads', { min: 1, max: MAX_THREADS, integer: true });
  if (threads > 1 && options.wasm !== undefined) {
    throw new TypeError('threads: init({ threads }) loads the threaded module shipped with ikpd; it cannot be combined with init({ wasm })');
  }
  return threads;
}

async function compile(options) {
  return compileWasm(options.wasm ?? new URL('../lib/ikpd.wasm', import.meta.url), 'wasm');
}

