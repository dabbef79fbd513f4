// ikpd — public typings. Each API module's typings live in ./types/.
import type { ChainApi, IkApi, SolverApi } from './types/ik/index.js';
import type { RigApi, RigBatchApi, RigsApi } from './types/rig/index.js';
import type { PdApi } from './types/pd/pd.js';
import type { HdrApi } from './types/hdr/hdr.js';
import type { BatchApi } from './types/batch/batch.js';

export * from './types/common.js';
export * from './types/ik/index.js';
export * from './types/rig/index.js';
export * from './types/pd/pd.js';
export * from './types/hdr/hdr.js';
export * from './types/batch/batch.js';

/** The loaded library: every solver, controller and transform. */
export interface Ikpd extends IkApi, PdApi, ChainApi, BatchApi, SolverApi, RigsApi, RigApi, RigBatchApi {
  /** Library version, the same as the C++ `ikpd::Version()`. */
  readonly version: string;
  /**
   * Threads each batch's solve()/update() runs on: init()'s `threads` where
   * the threaded module loaded, 1 otherwise (docs/batch/batches.md, "Threads").
   */
  readonly threads: number;
  /**
   * WebAssembly memory use, for leak checks: `heapBytes` is the size of the
   * WASM memory (it only grows), `usedBytes` the bytes currently allocated by
   * C++ (objects not yet disposed or garbage-collected included).
   */
  memoryStats(): { heapBytes: number; usedBytes: number };
  /** HDR output transforms (docs/hdr/hdr.md). */
  readonly hdr: HdrApi;
}

/** Where init() gets the WebAssembly module. */
export interface InitOptions {
  /**
   * The module, when it is not to be loaded from its default place.
   * - bytes: an `ArrayBuffer` or a view of one (`Uint8Array`, Node's `Buffer`);
   * - a `Response` (streamed when its Content-Type is `application/wasm`), or a
   *   promise of one: `fetch(url)` started early;
   * - a `URL` or a string: fetched; a `file:` URL, and in Node a string that is
   *   not an http(s)/data/blob URL (a file path), is read from disk;
   * - a promise of any of these.
   * @default new URL('./lib/ikpd.wasm', import.meta.url): the `.wasm` shipped
   * next to the glue, which bundlers (Vite, webpack 5) copy as an asset.
   */
  wasm?: BufferSource | Response | URL | string | PromiseLike<BufferSource | Response | URL | string>;
  /**
   * Threads for batches (an integer in [1, 16]): above 1, init() loads the
   * threaded module (`lib/threads/`, shared memory) and splits every batch's
   * solve()/update() over the calling thread and `threads − 1` workers. It
   * works in Node and in browsers on crossOriginIsolated pages (COOP/COEP
   * headers); elsewhere init() loads the single-threaded module and warns
   * once in development. Not combinable with `wasm`. See
   * docs/batch/batches.md, "Threads".
   * @default 1
   */
  threads?: number;
}

/**
 * Loads the WebAssembly module once and resolves to the API; later calls
 * return the same promise (their options are not read). A load that failed
 * (download, bad bytes) rejects and may be retried with another init().
 * Throws (rejects with) a TypeError naming `options`, `wasm` or `threads` for
 * bad options (a RangeError for a `threads` out of range).
 */
export function init(options?: InitOptions): Promise<Ikpd>;
export default init;
