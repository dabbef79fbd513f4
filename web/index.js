// ikpd — IK, PD-controller interpolation and HDR output transforms, in WebAssembly.
import createIkpdModule from './lib/ikpd.mjs';
import { Core } from './src/core.js';
import { createIkApi } from './src/ik.js';
import { createPdApi } from './src/pd.js';
import { createChainApi } from './src/chain.js';
import { createHdrApi } from './src/hdr.js';
import { createBatchApi } from './src/batch.js';
import { createSolverApi } from './src/solvers.js';

let instance = null;

/**
 * Loads the WebAssembly module (once; later calls return the same promise)
 * and resolves to the ikpd API. Works in Node >= 18, browsers and bundlers
 * with no configuration: the .wasm is embedded in the module.
 * @returns {Promise<import('./index.js').Ikpd>}
 */
export function init() {
  instance ??= createIkpdModule().then((wasm) => {
    const core = new Core(wasm);
    return Object.freeze({
      version: wasm.version(),
      memoryStats: () => core.memoryStats(),
      ...createIkApi(core),
      ...createPdApi(core),
      ...createChainApi(core),
      hdr: Object.freeze(createHdrApi(core)),
      ...createBatchApi(core),
      ...createSolverApi(core),
    });
  });
  return instance;
}

export default init;
