// Every JS class that owns WASM memory, for the leak and robustness tests:
// `create(ikpd)` makes a valid instance, `use(object)` calls a few methods.
// Add an entry when a module adds a class.
export const WASM_CLASSES = [
  {
    name: 'Tentacle2D',
    create: (ikpd) => new ikpd.Tentacle2D({ lengths: [1, 0.5, 0.25], step: 0.1, limit: [1, 1, 2] }),
    use: (t) => t.update([1, 1]).positions,
    cycles: 200_000, // 4 vectors per object: 1,000,000 cycles take ~15 s on CI
  },
];
