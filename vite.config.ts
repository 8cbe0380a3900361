import { defineConfig } from 'vite';

export default defineConfig({
  // StanzaJS 12 expects Node's `global` and the `events` package (installed) in the browser.
  define: { global: 'globalThis' },
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
  },
});
