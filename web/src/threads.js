// The threaded WebAssembly module (docs/batch/batches.md, "Threads"):
// init({ threads: n }) loads web/lib/threads/ikpd-threads.mjs + .wasm, whose
// batches split solve()/update() over the calling thread and n − 1 workers.
// Loaded only when asked for and only where shared memory works (always in
// Node; in browsers only when the page is crossOriginIsolated); elsewhere
// init() loads the single-threaded module and warns once in development.
import { readNumber } from './readers.js';
import { warnOnce } from './dev.js';
import { compileWasm } from './load-wasm.js';

/** Most threads init({ threads }) takes (cpp/bindings/batch/pool.h, kMaxThreads). */
export const MAX_THREADS = 16;

const NODE_MODULE = 'node:module'; // in variables so bundlers leave the Node-only imports alone
const NODE_WORKERS = 'node:worker_threads';
const NODE_URL = 'node:url';

const isNode = () => typeof process === 'object' && typeof process.versions?.node === 'string';

/** init()'s `threads` option: undefined → 1, else an integer in [1, MAX_THREADS]. */
export function readThreads(value) {
  return value === undefined ? 1 : readNumber(value, 'threads', { min: 1, max: MAX_THREADS, integer: true });
}

/** What decides whether threads can run: Node, SharedArrayBuffer, crossOriginIsolated. */
export const environment = () => ({
  node: isNode(),
  sharedMemory: typeof SharedArrayBuffer === 'function',
  crossOriginIsolated: globalThis.crossOriginIsolated === true,
});

/** Why the threaded module cannot run in `env` ('not cross-origin isolated', ...), or undefined where it can. */
export function threadsUnavailable(env = environment()) {
  if (env.node) return undefined;
  if (!env.sharedMemory) return 'no SharedArrayBuffer';
  if (!env.crossOriginIsolated) return 'not cross-origin isolated';
  return undefined;
}

/**
 * The threaded module's bindings with `threads` threads started, or
 * undefined (after one development warning) where it cannot run.
 */
export async function createThreadsModule(threads, env = environment()) {
  const reason = threadsUnavailable(env);
  if (reason !== undefined) {
    warnOnce('threads-off', `ikpd: init({ threads: ${threads} }) runs on one thread: ${reason}. ` +
      'Threads need shared memory: a page served with the headers Cross-Origin-Opener-Policy: same-origin and ' +
      'Cross-Origin-Embedder-Policy: require-corp (docs/batch/batches.md, "Threads"). Shown once, in development builds only.');
    return undefined;
  }
  const [{ default: createIkpdThreadsModule }, module, node] = await Promise.all([
    import('../lib/threads/ikpd-threads.mjs'),
    compileWasm(new URL('../lib/threads/ikpd-threads.wasm', import.meta.url), 'wasm'),
    env.node ? nodeHooks() : undefined,
  ]);
  const hadWorker = Object.hasOwn(globalThis, 'Worker');
  const wasm = await new Promise((resolve, reject) => {
    createIkpdThreadsModule({
      ikpdWorkers: threads - 1, // PTHREAD_POOL_SIZE: the glue starts them before it resolves
      ...node,
      instantiateWasm(imports, receiveInstance) {
        WebAssembly.instantiate(module, imports)
          .then((instance) => receiveInstance(instance, module))
          .catch(reject);
        return {};
      },
    }).then(resolve, reject);
  });
  // 3.1.6's glue sets a global Worker in Node for its own use (threads_pre.js gives it its own).
  if (node !== undefined && !hadWorker) delete globalThis.Worker;
  const started = wasm.startThreads(threads);
  // Node: idle workers do not keep the process alive.
  if (node !== undefined) for (const worker of [...wasm.PThread.runningWorkers, ...wasm.PThread.unusedWorkers]) worker.unref();
  wasm.ikpdThreads = started;
  return wasm;
}

// What threads_pre.js (the glue's --pre-js) hands the glue in Node.
async function nodeHooks() {
  const [{ createRequire }, { Worker }, { fileURLToPath }] = await Promise.all(
    [NODE_MODULE, NODE_WORKERS, NODE_URL].map((name) => import(/* @vite-ignore */ /* webpackIgnore: true */ name)));
  const glue = new URL('../lib/threads/ikpd-threads.mjs', import.meta.url);
  return { nodeRequire: createRequire(glue), nodeDirname: fileURLToPath(new URL('.', glue)), nodeWorker: Worker };
}
