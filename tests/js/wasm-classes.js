// Every JS class that owns WASM memory, for the leak and robustness tests:
// `create(ikpd)` makes a valid instance, `use(object)` calls a few methods.
// Add an entry when a module adds a class.
export const WASM_CLASSES = [];
