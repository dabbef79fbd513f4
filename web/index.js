// ikpd — IK, PD-controller interpolation and HDR output transforms, in WebAssembly.
import createIkpdModule from './lib/ikpd.mjs';
import { Core, readOptions } from './src/core.js';
import { compileWasm } from './src/load-wasm.js';
import { createIkApi } from './src/ik.js';
import { createPdApi } from './src/pd.js';
import { createChainApi } from './src/chain.js';
import { createHdrApi } from './src/hdr.js';
import { createBatchApi } from './src/batch.js';

let instance = null;

/**
 * Loads the WebAssembly module (once; later calls return the same promise,
 * and a failed load may be retried) and resolves to the ikpd API. Works in
 * Node >= 18, browsers and bundlers with no configuration: the .wasm ships as
 * its own file next to the glue and is fetched (streamed) or, in Node, read
 * from disk. `options.wasm` loads it from elsewhere (see index.d.ts).
 * @param {import('./index.js').InitOptions} [options]
 * @returns {Promise<import('./index.js').Ikpd>}
 */
export function init(options = {}) {
  instance ??= instantiate(options).then((wasm) => {
    const core = new Core(wasm);
    return Object.freeze({
      version: wasm.UTF8ToString(core.exports.ikpd_version() >>> 0),
      memoryStats: () => core.memoryStats(),
      ...createIkApi(core),
      ...createPdApi(core),
      ...createChainApi(core),
      hdr: Object.freeze(createHdrApi(core)),
      ...createBatchApi(core),
    });
  });
  return instance;
}

// The Emscripten module, instantiated from the compiled .wasm through its
// instantiateWasm hook. A failed download or compile clears `instance`, so a
// later init() tries again.
function instantiate(options) {
  const created = compile(options).then((module) => new Promise((resolve, reject) => {
    createIkpdModule({
      instantiateWasm(imports, receiveInstance) {
        WebAssembly.instantiate(module, imports).then((wasmInstance) => receiveInstance(wasmInstance, module), reject);
        return {};
      },
    }).then(resolve, reject);
  }));
  created.catch(() => {
    instance = null;
  });
  return created;
}

async function compile(options) {
  return compileWasm(readOptions(options).wasm ?? new URL('./lib/ikpd.wasm', import.meta.url), 'wasm');
}

export default init;
