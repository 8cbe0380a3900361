// Built by the repository's own Vite (scripts/bench/reference.ts), served by Parley's gateway under
// /reference/ so that the config API and websockets are the product's, on the same origin.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/reference/',
  // StanzaJS 12 expects Node's `global` and the `events` package in the browser.
  define: { global: 'globalThis', 'process.env.NODE_ENV': '"production"' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    // One chunk on purpose: the reference loads as its own package ships it.
    chunkSizeWarningLimit: 1024,
  },
});
