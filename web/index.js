// ikpd — IK, PD-controller interpolation and HDR output transforms, in WebAssembly.
import { createModule, moduleFor } from './src/module.js';
import { createApi } from './src/api.js';

// Loads started, each { level, promise } (web/src/module.js moduleFor).
let loads = [];

/**
 * Loads a WebAssembly module (once per module; a failed load may be retried)
 * and resolves to the ikpd API. Works in Node >= 18, browsers and bundlers
 * with no configuration: each .wasm ships as its own file next to its glue
 * and is fetched (streamed) or, in Node, read from disk. By default the
 * module with the ik, pd and hdr areas; `options.rig` and `options.batch`
 * ask for the larger modules, `options.threads` for the threaded one where it
 * can run, `options.wasm` loads the .wasm from elsewhere (see index.d.ts).
 * A later call returns an earlier call's promise when that module has every
 * area the later one asks for.
 * @param {import('./index.js').InitOptions} [options]
 * @returns {Promise<import('./index.js').Ikpd>}
 */
export function init(options = {}) {
  let level;
  try {
    level = moduleFor(options).level;
  } catch (error) {
    return Promise.reject(error);
  }
  const earlier = loads.find((load) => load.level >= level);
  if (earlier) return earlier.promise;
  const load = { level, promise: createModule(options).then(createApi) };
  loads.push(load);
  load.promise.catch(() => {
    loads = loads.filter((l) => l !== load); // a failed download or compile may be retried
  });
  return load.promise;
}

export default init;
