// ikpd — public typings. Each API module's typings live in ./types/.
import type { ChainApi, IkApi, SolverApi } from './types/ik/index.js';
import type { RigApi, RigBatchApi, RigsApi } from './types/rig/index.js';
import type { PdApi } from './types/pd/pd.js';
import type { InertializerApi } from './types/pd/inertializer.js';
import type { HdrApi } from './types/hdr/hdr.js';
import type { BatchApi } from './types/batch/batch.js';

export * from './types/common.js';
export * from './types/ik/index.js';
export * from './types/rig/index.js';
export * from './types/pd/pd.js';
export * from './types/pd/inertializer.js';
export * from './types/hdr/hdr.js';
export * from './types/batch/batch.js';

/**
 * The loaded library: every solver, controller and transform. The classes of
 * an area the loaded module does not have (`areas`) throw an Error naming
 * the init() option that loads it (docs/loading.md, "Modules").
 */
export interface Ikpd extends IkApi, PdApi, InertializerApi, ChainApi, BatchApi, SolverApi, RigsApi, RigApi, RigBatchApi {
  /** Library version, the same as the C++ `ikpd::Version()`. */
  readonly version: string;
  /**
   * Threads each batch's solve()/update() runs on: init()'s `threads` where
   * the threaded module loaded, 1 otherwise (docs/batch/batches.md, "Threads").
   */
  readonly threads: number;
  /**
   * The areas of the module init() loaded: `['ik', 'pd', 'hdr']` by default,
   * plus `'rig'` with init({ rig: true }), plus `'batch'` with
   * init({ batch: true }) or init({ threads }) (docs/loading.md, "Modules").
   */
  readonly areas: readonly ('ik' | 'pd' | 'hdr' | 'rig' | 'batch')[];
  /**
   * WebAssembly memory use, for leak checks: `heapBytes` is the size of the
   * WASM memory (it only grows), `usedBytes` the bytes currently allocated by
   * C++ (objects not yet disposed or garbage-collected included).
   */
  memoryStats(): { heapBytes: number; usedBytes: number };
  /** HDR output transforms (docs/hdr/hdr.md). */
  readonly hdr: HdrApi;
}

/**
 * Which WebAssembly module init() loads, and from where. There are three, each
 * the one before plus an area: `ikpd` (ik, pd, hdr: the solvers, prepared
 * solvers, chains, the tentacle, PD controllers, HDR), `ikpd-rig` (+ rig:
 * `Rig`, `LookAt`, `BodyLookAt` and every `ikpd/three` helper) and
 * `ikpd-batch` (+ batch: the batches and `RigBatch`). An app downloads only
 * the one it asks for (docs/loading.md, "Modules").
 */
export interface InitOptions {
  /**
   * Load the module with the rig area (`lib/ikpd-rig.wasm`): `Rig`,
   * `LookAt`, `BodyLookAt`, and the `ikpd/three` helpers, which run on a rig.
   * @default false
   */
  rig?: boolean;
  /**
   * Load the module with every area (`lib/ikpd-batch.wasm`): the rig's and
   * the batches (`TwoBoneBatch`, `AimBatch`, `PseudoThreeBoneBatch`,
   * `PDBatch`, `QuatPDBatch`, `RigBatch`).
   * @default false
   */
  batch?: boolean;
  /**
   * The `.wasm` of the module the other options ask for, when it is not to
   * be loaded from its default place (a `.wasm` of another module is a
   * TypeError naming the options that load it).
   * - bytes: an `ArrayBuffer` or a view of one (`Uint8Array`, Node's `Buffer`);
   * - a `Response` (streamed when its Content-Type is `application/wasm`), or a
   *   promise of one: `fetch(url)` started early;
   * - a `URL` or a string: fetched; a `file:` URL, and in Node a string that is
   *   not an http(s)/data/blob URL (a file path), is read from disk;
   * - a promise of any of these.
   * @default new URL('./lib/ikpd.wasm', import.meta.url) (or `ikpd-rig.wasm`,
   * `ikpd-batch.wasm`): the `.wasm` shipped next to its glue, which bundlers
   * (Vite, webpack 5) copy as an asset.
   */
  wasm?: BufferSource | Response | URL | string | PromiseLike<BufferSource | Response | URL | string>;
  /**
   * Threads for batches (an integer in [1, 16]): above 1, init() loads the
   * threaded module (`lib/threads/`, shared memory, every area) and splits every batch's
   * solve()/update() over the calling thread and `threads − 1` workers. It
   * works in Node and in browsers on crossOriginIsolated pages (COOP/COEP
   * headers); elsewhere init() loads `ikpd-batch` and warns
   * once in development. Not combinable with `wasm`. See
   * docs/batch/batches.md, "Threads".
   * @default 1
   */
  threads?: number;
}

/**
 * Loads the WebAssembly module the options ask for and resolves to the API.
 * A later call returns an earlier call's promise when that module has every
 * area the later one asks for (its other options are not read); otherwise it
 * loads the larger module, a second API whose objects are its own. A load
 * that failed (download, bad bytes) rejects and may be retried with another
 * init(). Throws (rejects with) a TypeError naming `options`, `wasm`,
 * `threads`, `rig` or `batch` for bad options (a RangeError for a `threads`
 * out of range).
 */
export function init(options?: InitOptions): Promise<Ikpd>;
export default init;
