// Shared by the JS tests: the loaded library (the real WASM build).
import { init } from '../../web/index.js';

export const ikpd = await init({ batch: true }); // every area (docs/loading.md, "Modules")
