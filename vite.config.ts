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
    rolldownOptions: {
      // The per-plugin timing report is noise in every build log; profile with --cpu-prof when needed.
      checks: { pluginTimings: false },
      onwarn(warning, warn) {
        // Jotai's 'use client' directive is for React Server Components, which Parley does not use.
        if (warning.code === 'MODULE_LEVEL_DIRECTIVE') return;
        warn(warning);
      },
    },
  },
});
