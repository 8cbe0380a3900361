// What each page loads before its first frame, in gzip KB, read from a build's Vite manifest — the
// same figures for `npm run bench` and for the size budget test (tests/integration/bundle-budget).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** The targets (issue "See everyone fast", item 5), gzip KB: the bench prints each beside it. */
export const BUNDLE_TARGETS_KB = { callPage: 150, sharedWorker: 120, chatPopout: 80 } as const;

/** A room: its view and the call's code, which the page starts loading at page load (src/ui/main.tsx: TabCalls.loadCallCode). */
const CALL_PAGE = ['index.html', 'src/ui/RoomView.tsx', 'src/main-thread/TabCalls.ts', 'src/main-thread/callTab/createTabCallRuntime.ts'] as const;

/**
 * The modules (manifest keys) each page imports before its first frame; each counts with everything
 * it imports statically. Dynamic imports that wait for something later — the owner's moderation
 * dialogs — do not count. mediasoup-client does for a newcomer to a call on the relay, whose page
 * loads it as the relay connection opens (call/relay/RelayLink.ts), before its first remote frame.
 */
export const FIRST_FRAME_MODULES = {
  callPage: CALL_PAGE,
  callPageOnRelay: [...CALL_PAGE, 'node_modules/mediasoup-client/lib/index.js'],
  chatPopout: ['index.html', 'src/ui/ChatPopout.tsx'],
} as const;

/** The shared worker's first script is the emitted one whose source map has its entry. */
const SHARED_WORKER_ENTRY = 'src/shared-worker/entry.ts';

interface ManifestChunk {
  file: string;
  imports?: string[];
}

export interface BundleSizes {
  /** Each page's scripts before its first frame, gzip KB. */
  callPage: number;
  /** The call page of a newcomer to a call on the relay: with mediasoup-client. */
  callPageOnRelay: number;
  sharedWorker: number;
  chatPopout: number;
  /** The files counted for each, so that a budget failure says what is in it. */
  files: Record<Page, string[]>;
  /** The manifest keys (source modules and shared chunks) counted for each page. */
  modules: Record<Exclude<Page, 'sharedWorker'>, string[]>;
}

type Page = 'callPage' | 'callPageOnRelay' | 'sharedWorker' | 'chatPopout';

/** Reads `<outDir>/.vite/manifest.json` (the build needs `build.manifest`) and the emitted scripts. */
export function measureBundles(outDir: string): BundleSizes {
  const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
  const gzipKb = (file: string) => gzipSync(readFileSync(join(outDir, file))).length / 1024;
  const staticClosure = (keys: readonly string[]): string[] => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key)) return;
      const chunk = manifest[key];
      if (!chunk) throw new Error(`the build has no chunk for ${key}`);
      seen.add(key);
      for (const imported of chunk.imports ?? []) visit(imported);
    };
    keys.forEach(visit);
    return [...seen];
  };
  const scriptsOf = (keys: readonly string[]) => keys.map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
  const workerFile = readdirSync(join(outDir, 'assets'))
    .filter((file) => file.endsWith('.js.map'))
    .find((map) => (JSON.parse(readFileSync(join(outDir, 'assets', map), 'utf8')) as { sources: string[] }).sources.some((source) => source.endsWith(SHARED_WORKER_ENTRY)));
  if (!workerFile) throw new Error(`no emitted script comes from ${SHARED_WORKER_ENTRY}`);
  // The worker's build is not in the manifest: its scripts are the entry's and every one it imports,
  // statically or at once (entry.ts loads the session's code as it starts).
  const workerScripts = new Set<string>();
  const visitWorkerScript = (file: string) => {
    if (workerScripts.has(file)) return;
    workerScripts.add(file);
    const code = readFileSync(join(outDir, 'assets', file), 'utf8');
    for (const [, imported] of code.matchAll(/(?:\bfrom|\bimport\(?)\s*[`"']\.\/([^`"']+\.js)[`"']/g)) visitWorkerScript(imported!);
  };
  visitWorkerScript(workerFile.replace(/\.map$/, ''));
  const modules = {
    callPage: staticClosure(FIRST_FRAME_MODULES.callPage),
    callPageOnRelay: staticClosure(FIRST_FRAME_MODULES.callPageOnRelay),
    chatPopout: staticClosure(FIRST_FRAME_MODULES.chatPopout),
  };
  const files = {
    callPage: scriptsOf(modules.callPage),
    callPageOnRelay: scriptsOf(modules.callPageOnRelay),
    sharedWorker: [...workerScripts].map((file) => join('assets', file)),
    chatPopout: scriptsOf(modules.chatPopout),
  };
  const total = (list: string[]) => list.reduce((sum, file) => sum + gzipKb(file), 0);
  return {
    callPage: total(files.callPage),
    callPageOnRelay: total(files.callPageOnRelay),
    sharedWorker: total(files.sharedWorker),
    chatPopout: total(files.chatPopout),
    files,
    modules,
  };
}
