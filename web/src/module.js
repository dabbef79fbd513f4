// Loading the WebAssembly module: the .wasm next to the glue by default.
import createIkpdModule from '../lib/ikpd.mjs';
import { readOptions } from './core.js';
import { compileWasm } from './load-wasm.js';

/**
 * The Emscripten module (the Embind bindings), instantiated from the compiled
 * .wasm through its instantiateWasm hook; `options` as for init(). Used by
 * init() and by tools that need the raw bindings (tests, benchmarks).
 */
export function createModule(options = {}) {
  return compile(options).then((module) => new Promise((resolve, reject) => {
    createIkpdModule({
      instantiateWasm(imports, receiveInstance) {
        WebAssembly.instantiate(module, imports).then((wasmInstance) => receiveInstance(wasmInstance, module), reject);
        return {};
      },
    }).then(resolve, reject);
  }));
}

async function compile(options) {
  return compileWasm(readOptions(options).wasm ?? new URL('../lib/ikpd.wasm', import.meta.url), 'wasm');
}

