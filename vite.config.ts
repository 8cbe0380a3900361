import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { compileHints } from './scripts/vite/compileHints.ts';
import { precompress } from './scripts/vite/precompress.ts';
import { startEarly } from './scripts/vite/startEarly.ts';

/**
 * The page build resolves StanzaJS's Jingle imports of its platform module to the tab's own
 * (`src/main-thread/call/stanzaPlatform.ts`, which says why). Top-level plugins do not reach the
 * worker bundles in a build (`worker.plugins` does), so the shared worker keeps StanzaJS's.
 */
function tabStanzaPlatform(): Plugin {
  const tabPlatform = fileURLToPath(new URL('./src/main-thread/call/stanzaPlatform.ts', import.meta.url));
  const jingleModule = /[\\/]node_modules[\\/]stanza[\\/](jingle[\\/][^\\/]+|Utils)\.js$/;
  return {
    name: 'parley:tab-stanza-platform',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return importer && jingleModule.test(importer) && /^\.\.?\/platform$/.test(source) ? tabPlatform : undefined;
    },
  };
}

/**
 * The shared worker's build resolves StanzaJS's protocol index (every XEP module it knows, required
 * by its client and its package index) to the definitions Parley's wire uses
 * (`src/shared-worker/stanzaProtocol.ts`): the worker then neither loads nor runs the rest.
 */
function workerStanzaProtocol(): Plugin {
  const parleyProtocol = fileURLToPath(new URL('./src/shared-worker/stanzaProtocol.ts', import.meta.url));
  const stanzaRoot = /[\\/]node_modules[\\/]stanza[\\/](Client|index)\.js$/;
  return {
    name: 'parley:worker-stanza-protocol',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return importer && stanzaRoot.test(importer) && source === './protocol' ? parleyProtocol : undefined;
    },
  };
}

export default defineConfig({
  plugins: [tabStanzaPlatform(), startEarly(), compileHints(), precompress()],
  // StanzaJS 12 expects Node's `global` and the `events` package (installed) in the browser.
  define: { global: 'globalThis' },
  worker: { format: 'es', plugins: () => [workerStanzaProtocol()] },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // What each page loads before its first frame is read from the manifest (scripts/bench/bundles.ts).
    manifest: true,
    // Every browser Parley runs in (WebRTC, SharedWorker, Web Locks) preloads modules natively: the
    // polyfill would only add to what each page loads before its first frame.
    modulePreload: { polyfill: false },
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
