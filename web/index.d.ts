// ikpd — public typings. Each API module's typings live in ./types/.
import type { ChainApi, IkApi, SolverApi } from './types/ik/index.js';
import type { RigApi, RigsApi } from './types/rig/index.js';
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
export interface Ikpd extends IkApi, PdApi, ChainApi, BatchApi, SolverApi, RigsApi, RigApi {
  /** Library version, the same as the C++ `ikpd::Version()`. */
  readonly version: string;
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
}

/**
 * Loads the WebAssembly module once and resolves to the API; later calls
 * return the same promise (their options are not read). A load that failed
 * (download, bad bytes) rejects and may be retried with another init().
 * Throws (rejects with) a TypeError naming `options` or `wasm` for bad options.
 */
export function init(options?: InitOptions): Promise<Ikpd>;
export default init;
