import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
const web = (p) => fileURLToPath(new URL(`../web/${p}`, import.meta.url));

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  resolve: {
    alias: [
      { find: /^ikpd\/three\/hdr$/, replacement: web('three/hdr/hdr.js') },
      { find: /^ikpd\/three$/, replacement: web('three/index.js') },
      { find: /^ikpd$/, replacement: web('index.js') },
    ],
  },
  // three's WebGPU build is one ~1.5 MB chunk; that is expected.
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 2000 },
  // Cross-origin isolation (COOP + COEP): shared memory for init({ threads })
  // (docs/batch/batches.md, "Threads"); the demo loads nothing cross-origin.
  server: { host: '127.0.0.1', headers: ISOLATION },
  preview: { headers: ISOLATION },
});
