import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { compileHints } from './scripts/vite/compileHints.ts';
import { precompress } from './scripts/vite/precompress.ts';
import { startEarly } from './scripts/vite/startEarly.ts';

/**
 * The page build resolves StanzaJS's Jingle imports of its platform module to the tab's own
 * (`src/main-thread/call/stanzaPlatform.ts`, which says why), and of its file-transfer session to a
 * stand-in (`src/main-thread/call/stanzaFileTransfer.ts`, which says why). Top-level plugins do not
 * reach the worker bundles in a build (`worker.plugins` does), so the shared worker keeps StanzaJS's.
 */
function tabStanzaModules(): Plugin {
  const tabModule = (name: string) => fileURLToPath(new URL(`./src/main-thread/call/${name}.ts`, import.meta.url));
  const replaced: Record<string, string> = { '../platform': tabModule('stanzaPlatform'), './platform': tabModule('stanzaPlatform'), './FileTransferSession': tabModule('stanzaFileTransfer') };
  const jingleModule = /[\\/]node_modules[\\/]stanza[\\/](jingle[\\/][^\\/]+|Utils)\.js$/;
  return {
    name: 'parley:tab-stanza-modules',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return importer && jingleModule.test(importer) ? replaced[source] : undefined;
    },
  };
}

/**
 * The shared worker's build resolves three of StanzaJS's modules to Parley's: its protocol index
 * (every XEP module it knows, required by its client and its package index) to the definitions
 * Parley's wire uses (`src/shared-worker/stanzaProtocol.ts`), its plugin index to the plugins
 * Parley's session uses (`src/shared-worker/stanzaPlugins.ts`), and its package index's Jingle
 * namespace to nothing (`src/shared-worker/stanzaJingle.ts`): the worker then neither loads nor
 * compiles the rest.
 */
function workerStanzaModules(): Plugin {
  const parleyModule = (name: string) => fileURLToPath(new URL(`./src/shared-worker/${name}.ts`, import.meta.url));
  // Only the package index requires './jingle'; both it and the client require the other two.
  const replaced: Record<string, string> = { './protocol': parleyModule('stanzaProtocol'), './plugins': parleyModule('stanzaPlugins'), './jingle': parleyModule('stanzaJingle') };
  const stanzaRoot = /[\\/]node_modules[\\/]stanza[\\/](Client|index)\.js$/;
  return {
    name: 'parley:worker-stanza-modules',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      return importer && stanzaRoot.test(importer) ? replaced[source] : undefined;
    },
  };
}

/**
 * The page build leaves out of mediasoup-client, which a relay newcomer loads before its first
 * frame (issue 14, the bundles), what no browser of Parley's runs: React Native's handler, the fake
 * handler and fake parameters of its tests (`src/main-thread/call/relay/clientLeftOut/leftOutHandlers.ts`),
 * and the `debug` package's output, off unless turned on in the browser's storage (`quietDebug.ts`);
 * and its `events-alias`, the very `events` 3.3.0 the page has already for StanzaJS, is that one.
 */
function relayClientTrim(): Plugin {
  const leftOut = (name: string) => fileURLToPath(new URL(`./src/main-thread/call/relay/clientLeftOut/${name}.ts`, import.meta.url));
  const replaced: Record<string, string> = {
    './handlers/ReactNative106': leftOut('leftOutHandlers'),
    './handlers/FakeHandler': leftOut('leftOutHandlers'),
    './test/fakeParameters': leftOut('leftOutHandlers'),
  };
  const clientModule = /[\\/]node_modules[\\/]mediasoup-client[\\/]lib[\\/](index|Device)\.js$/;
  const clientEvents = /[\\/]node_modules[\\/]mediasoup-client[\\/]lib[\\/]enhancedEvents\.js$/;
  const usesDebug = /[\\/]node_modules[\\/](mediasoup-client|awaitqueue|h264-profile-level-id)[\\/]lib[\\/][^\\/]+\.js$/;
  return {
    name: 'parley:relay-client-trim',
    apply: 'build',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return undefined;
      if (source === 'debug' && usesDebug.test(importer)) return leftOut('quietDebug');
      if (source === 'events-alias' && clientEvents.test(importer)) return this.resolve('events', importer, { skipSelf: true });
      return clientModule.test(importer) ? replaced[source] : undefined;
    },
  };
}

export default defineConfig({
  plugins: [tabStanzaModules(), relayClientTrim(), startEarly(), compileHints(), precompress()],
  // StanzaJS 12 expects Node's `global` and the `events` package (installed) in the browser.
  define: { global: 'globalThis' },
  worker: { format: 'es', plugins: () => [workerStanzaModules()] },
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
