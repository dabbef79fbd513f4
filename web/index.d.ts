// ikpd — public typings. Each API module's typings live in ./types/.
import type { IkApi } from './types/ik.js';
import type { PdApi } from './types/pd.js';
import type { ChainApi } from './types/chain.js';
import type { HdrApi } from './types/hdr.js';
import type { BatchApi } from './types/batch.js';
import type { SolverApi } from './types/solvers.js';

export * from './types/common.js';
export * from './types/ik.js';
export * from './types/pd.js';
export * from './types/chain.js';
export * from './types/hdr.js';
export * from './types/batch.js';
export * from './types/solvers.js';

/** The loaded library: every solver, controller and transform. */
export interface Ikpd extends IkApi, PdApi, ChainApi, BatchApi, SolverApi {
  /** Library version, the same as the C++ `ikpd::Version()`. */
  readonly version: string;
  /**
   * WebAssembly memory use, for leak checks: `heapBytes` is the size of the
   * WASM memory (it only grows), `usedBytes` the bytes currently allocated by
   * C++ (objects not yet disposed or garbage-collected included).
   */
  memoryStats(): { heapBytes: number; usedBytes: number };
  /** HDR output transforms (SPEC §7). */
  readonly hdr: HdrApi;
}

/** Loads the WebAssembly module once and resolves to the API; later calls return the same promise. */
export function init(): Promise<Ikpd>;
export default init;
