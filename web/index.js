// ikpd — IK, PD-controller interpolation and HDR output transforms, in WebAssembly.
import { createModule } from './src/module.js';
import { createApi } from './src/api.js';

let instance = null;

/**
 * Loads the WebAssembly module (once; later calls return the same promise,
 * and a failed load may be retried) and resolves to the ikpd API. Works in
 * Node >= 18, browsers and bundlers with no configuration: the .wasm ships as
 * its own file next to the glue and is fetched (streamed) or, in Node, read
 * from disk. `options.wasm` loads it from elsewhere, `options.threads` the
 * threaded module where it can run (see index.d.ts).
 * @param {import('./index.js').InitOptions} [options]
 * @returns {Promise<import('./index.js').Ikpd>}
 */
export function init(options = {}) {
  if (instance) return instance;
  instance = createModule(options).then(createApi);
  instance.catch(() => {
    instance = null; // a failed download or compile may be retried
  });
  return instance;
}

export default init;
