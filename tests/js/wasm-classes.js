// Every JS class that owns WASM memory, for the leak and robustness tests:
// `create(ikpd)` makes a valid instance, `use(object)` calls a few methods.
// Add an entry when a module adds a class.
export const WASM_CLASSES = [
  // batch (web/src/batch.js); 100,000 cycles: each creation also fills its fields.
  { name: 'TwoBoneBatch', create: (ikpd) => new ikpd.TwoBoneBatch(16, { poleMode: 'point' }), use: (b) => b.input.target.fill(1), cycles: 100_000 },
  { name: 'AimBatch', create: (ikpd) => new ikpd.AimBatch(16), use: (b) => b.input.target.fill(1), cycles: 100_000 },
];
