// ikpd — IK, PD-controller interpolation and HDR output transforms, in WebAssembly.
import { Core } from './src/core.js';
import { createModule } from './src/module.js';
import { createAimApi } from './src/ik/aim.js';
import { createTwoBoneApi } from './src/ik/twoBone.js';
import { createLocalRotationsApi } from './src/ik/localRotations.js';
import { createPseudoThreeBoneApi } from './src/ik/pseudoThreeBone.js';
import { createChainApi } from './src/ik/chain.js';
import { createTentacleApi } from './src/ik/tentacle.js';
import { createSolverApi } from './src/ik/solvers.js';
import { createPdApi } from './src/pd/pd.js';
import { createHdrApi } from './src/hdr/hdr.js';
import { createBatchApi } from './src/batch/batch.js';
import { createLookAtApi } from './src/rig/lookAt.js';
import { createBodyLookAtApi } from './src/rig/bodyLookAt.js';
import { createRigApi } from './src/rig/rig.js';
import { JOBS } from './src/jobs.js';

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
  if (instance) return instance;
  instance = createModule(options).then((wasm) => {
    const core = new Core(wasm, JOBS);
    return Object.freeze({
      version: wasm.version(),
      memoryStats: () => core.memoryStats(),
      ...createAimApi(core),
      ...createTwoBoneApi(core),
      ...createLocalRotationsApi(core),
      ...createPdApi(core),
      ...createChainApi(core),
      ...createPseudoThreeBoneApi(core),
      ...createTentacleApi(core),
      ...createLookAtApi(core),
      hdr: Object.freeze(createHdrApi(core)),
      ...createBatchApi(core),
      ...createSolverApi(core),
      ...createBodyLookAtApi(core),
      ...createRigApi(core),
    });
  });
  instance.catch(() => {
    instance = null; // a failed download or compile may be retried
  });
  return instance;
}

export default init;
