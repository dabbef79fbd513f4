// Compiles ikpd's WebAssembly module from wherever init() was told it lives:
// the .wasm file shipped next to the Emscripten glue (web/lib/ikpd.wasm) by
// default, or what the app passed as init({ wasm }). Browsers and bundlers
// fetch it as its own request and compile it while it downloads
// (WebAssembly.compileStreaming); Node reads it from disk.

// Kept in a variable so bundlers leave the Node-only import alone.
const NODE_FS = 'node:fs/promises';

const isNode = () => typeof process === 'object' && typeof process.versions?.node === 'string';

/**
 * Compiles a WebAssembly.Module from `source`:
 * - bytes: an `ArrayBuffer` or a view of one (`Uint8Array`, Node's `Buffer`),
 * - a `Response`, or a promise of one (`fetch(url)` started early),
 * - a `URL` or a string: fetched, except a `file:` URL (or, in Node, a string
 *   that is not an http(s)/data/blob URL: a file path) which Node reads from disk.
 * A promise of any of these is awaited first. Throws a TypeError naming `name`
 * for anything else, and an Error naming the URL when the download fails.
 */
export async function compileWasm(source, name = 'wasm') {
  source = await source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  if (source instanceof URL || typeof source === 'string') return compileWasm(open(source), name);
  if (isResponse(source)) return compileResponse(source, name);
  throw new TypeError(`${name}: expected bytes (ArrayBuffer or a typed array), a Response, a URL or a string, got ${source === null ? 'null' : typeof source}`);
}

// Duck-typed, so that Node never touches its lazily loaded (about 150 ms) fetch globals.
const isResponse = (value) => typeof value?.arrayBuffer === 'function' && typeof value.headers?.get === 'function';

// The file's bytes, read from disk, in Node for file URLs and paths; a fetch() Response otherwise.
async function open(where) {
  const text = String(where);
  const file = text.startsWith('file:');
  if (!isNode() || (!file && /^(https?|data|blob):/i.test(text))) return fetch(where);
  const { readFile } = await import(/* @vite-ignore */ /* webpackIgnore: true */ NODE_FS);
  return readFile(file ? new URL(text) : text);
}

// Streams when the server labels the body application/wasm (which
// compileStreaming requires); otherwise, as with a server that does not know
// the .wasm extension, compiles the downloaded bytes: one request either way.
async function compileResponse(response, name) {
  if (!response.ok) {
    throw new Error(`${name}: loading ${response.url || 'the .wasm'} failed: HTTP ${response.status} ${response.statusText}`.trimEnd());
  }
  const type = response.headers.get('Content-Type') ?? '';
  if (typeof WebAssembly.compileStreaming === 'function' && /^application\/wasm\b/i.test(type)) {
    return WebAssembly.compileStreaming(response);
  }
  return WebAssembly.compile(await response.arrayBuffer());
}
