// The ikpd API over loaded bindings (web/src/module.js): what init() resolves to.
import { Core } from './core.js';
import { createAimApi } from './ik/aim.js';
import { createTwoBoneApi } from './ik/twoBone.js';
import { createLocalRotationsApi } from './ik/localRotations.js';
import { createPseudoThreeBoneApi } from './ik/pseudoThreeBone.js';
import { createChainApi } from './ik/chain.js';
import { createTentacleApi } from './ik/tentacle.js';
import { createSolverApi } from './ik/solvers.js';
import { createPdApi } from './pd/pd.js';
import { createInertializerApi } from './pd/inertializer.js';
import { createHdrApi } from './hdr/hdr.js';
import { createBatchApi } from './batch/batch.js';
import { createLookAtApi } from './rig/lookAt.js';
import { createBodyLookAtApi } from './rig/bodyLookAt.js';
import { createRigApi } from './rig/rig.js';
import { JOBS } from './jobs.js';

/** The frozen API object over `wasm`, the Emscripten module's bindings. */
export function createApi(wasm) {
  const core = new Core(wasm, JOBS);
  return Object.freeze({
    version: wasm.version(),
    threads: wasm.ikpdThreads ?? 1,
    areas: wasm.ikpdModule.areas,
    memoryStats: () => core.memoryStats(),
    ...createAimApi(core),
    ...createTwoBoneApi(core),
    ...createLocalRotationsApi(core),
    ...createPdApi(core),
    ...createInertializerApi(core),
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
}
