// The threaded WebAssembly module (docs/batch/batches.md, "Threads"):
// init({ threads: n }) loads web/lib/threads/ikpd-threads.mjs + .wasm, whose
// batches split solve()/update() over the calling thread and n − 1 workers.
// Loaded only when asked for and only where shared memory works (always in
// Node; in browsers only when the page is crossOriginIsolated); elsewhere
// init() loads the single-threaded module and warns once in development.
// web/src/module.js decides (threadsAvailable) and imports this file only
// for init({ threads }) above 1 where threads run, so the default path
// neither loads it nor bundles it into its chunk.
import createIkpdThreadsModule from '../lib/threads/ikpd-threads.mjs';

const NODE_MODULE = 'node:module'; // in variables so bundlers leave the Node-only imports alone
const NODE_WORKERS = 'node:worker_threads';
const NODE_URL = 'node:url';

/**
 * The threaded module's bindings with `threads` threads started; `env.node`
 * as in web/src/module.js, which also hands over its compileWasm (this file
 * imports nothing of the default path: bundlers then share no chunk between them).
 */
export async function createThreadsModule(threads, env, compileWasm) {
  const [module, node] = await Promise.all([
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
