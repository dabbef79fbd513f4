// Measures `await init()` in a fresh Node process: prints JSON
// { importMs, initMs } (module import, then WASM compile + instantiate + API setup).
const t0 = performance.now();
const { init } = await import('../web/index.js');
const t1 = performance.now();
await init();
const t2 = performance.now();
console.log(JSON.stringify({ importMs: t1 - t0, initMs: t2 - t1 }));
