import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin, Rollup } from 'vite';
import { EARLY_TAB_LOCK, TAB_LOCK_PREFIX } from '../../src/protocol/tabs.ts';

type OutputBundle = Rollup.OutputBundle;
type OutputChunk = Rollup.OutputChunk;

/** The module whose `new SharedWorker(new URL(…))` starts the session (src/main-thread/SessionBridge.ts). */
const SESSION_STARTER = 'src/main-thread/SessionBridge.ts';
/** What a room page loads at once beside the entry (src/ui/App.tsx's RoomView; src/ui/main.tsx's TabCalls, with the call's code). */
const ROOM_PAGE_MODULES = ['src/ui/RoomView.tsx', 'src/main-thread/TabCalls.ts', 'src/main-thread/callTab/createTabCallRuntime.ts'];

/** The built session worker's URL and options, as the entry chunk starts it. */
function sessionWorkerOf(entry: OutputChunk): { url: string; options: string } {
  // Minified or not: `new SharedWorker(new URL(/* @vite-ignore */ "<script>", …), { …options })`.
  const started = /new SharedWorker\(\s*new URL\(\s*(?:\/\*[^*]*\*\/\s*)?([`"'])([^`"']+)\1[^)]*\)\s*,\s*(\{[^}]*\})\s*\)/.exec(entry.code);
  if (!started) throw new Error(`startEarly: the entry chunk does not start the session worker (${SESSION_STARTER} changed?)`);
  return { url: started[2]!, options: started[3]! };
}

/** The chunks of `modules` with everything they import statically, but those the entry brings already. */
function chunksOf(bundle: OutputBundle, entry: OutputChunk, modules: readonly string[]): string[] {
  const chunks = Object.values(bundle).filter((output): output is OutputChunk => output.type === 'chunk');
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const loaded = new Set([entry.fileName, ...entry.imports]);
  const wanted = new Set<string>();
  const visit = (chunk: OutputChunk | undefined): void => {
    if (!chunk || loaded.has(chunk.fileName) || wanted.has(chunk.fileName)) return;
    wanted.add(chunk.fileName);
    chunk.imports.forEach((file) => visit(byFile.get(file)));
  };
  for (const module of modules) {
    const chunk = chunks.find((candidate) => candidate.facadeModuleId?.endsWith(module)) ?? chunks.find((candidate) => candidate.moduleIds.some((id) => id.endsWith(module)));
    if (!chunk) throw new Error(`startEarly: the build has no chunk for ${module}`);
    visit(chunk);
  }
  return [...wanted];
}

/**
 * Issue 14, the join path: the page's HTML starts, before its entry script has even arrived, what
 * the entry would start only once it has been fetched and run — the tab's liveness lock (the entry's
 * session bridge adopts it), the shared worker (whose login and room lookup are the join's first
 * round trips; the entry's own `new SharedWorker` then joins the same worker, by its URL and name)
 * and, on a room's page, the room view's and the call's code. Those preloads go at low priority: at
 * normal priority, on a bare page with this script alone, they held the worker's start back by about
 * 40 ms (the browser fetches the worker's script on the same connections, after them).
 * Which page is a room's follows src/ui/route.ts `parseRoute`: any path but `/`, unless `?view=chat`.
 * The worker starts beside another build's too (after an update, its script has another address):
 * its first script joins no room, and the page's session bridge sends it nothing while another
 * build's session runs (src/protocol/tabs.ts `sessionOfAnotherBuild`). So the plugin also names the
 * build, for the page's modules and the worker's alike (`PARLEY_BUILD`): a digest of what it is
 * built from, so that the same code built again is the same build, as its worker is the same.
 */
export function startEarly(): Plugin {
  return {
    name: 'parley:start-early',
    apply: 'build',
    config: (config) => ({ define: { __PARLEY_BUILD__: JSON.stringify(buildDigest(config.root ?? process.cwd())) } }),
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle, chunk }) {
        if (!bundle || !chunk) return undefined;
        const worker = sessionWorkerOf(chunk);
        const roomChunks = chunksOf(bundle, chunk, ROOM_PAGE_MODULES).map((file) => `/${file}`);
        const script = [
          // The tab's liveness lock (src/protocol/tabs.ts EarlyTabLock): its grant takes a round trip
          // to the browser, and the tab attaches to the session only once it holds it.
          `if (navigator.locks && crypto.randomUUID) {`,
          `  const tabId = crypto.randomUUID();`,
          `  const held = new Promise((granted) => navigator.locks.request(${JSON.stringify(TAB_LOCK_PREFIX)} + tabId, () => { granted(); return new Promise(() => {}); }));`,
          `  window[${JSON.stringify(EARLY_TAB_LOCK)}] = { tabId, held };`,
          `}`,
          `if (typeof SharedWorker === 'function') new SharedWorker(${JSON.stringify(worker.url)}, ${worker.options});`,
          `if (location.pathname.replace(/^\\/+|\\/+$/g, '') && new URLSearchParams(location.search).get('view') !== 'chat') {`,
          `  for (const href of ${JSON.stringify(roomChunks)}) {`,
          `    const link = document.createElement('link');`,
          `    link.rel = 'modulepreload';`,
          `    link.crossOrigin = '';`,
          // Low: a page has six connections to its origin, and the worker's script, its config
          // request and its session's code, asked for just after these, are on the join's way; a
          // connection freed goes to the most urgent request waiting.
          `    link.fetchPriority = 'low';`,
          `    link.href = href;`,
          `    document.head.appendChild(link);`,
          `  }`,
          // The room's first render reads its layout from localStorage (src/ui/roomLayout.ts); a
          // page's first access loads the origin's storage with a round trip to the browser, made
          // here after the preloads have started, while the page waits for its scripts.
          `  try { localStorage.length; } catch {}`,
          `}`,
        ].join('\n');
        // After the entry's own tags (their fetches start first), before any stylesheet: an inline
        // script after a stylesheet link waits for the stylesheet.
        const stylesheet = html.search(/<link rel="stylesheet"/);
        const before = stylesheet >= 0 ? stylesheet : html.indexOf('</head>');
        return `${html.slice(0, before)}<script>${script}</script>\n    ${html.slice(before)}`;
      },
    },
  };
}

/** A digest of the app's sources and locked dependencies: the same for the same code, built again or elsewhere. */
function buildDigest(root: string): string {
  const hash = createHash('sha256');
  const files = [...readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' }).map((file) => join('src', file)), 'package-lock.json', 'vite.config.ts'].sort();
  for (const file of files) {
    const path = join(root, file);
    if (!statSync(path).isFile()) continue;
    hash.update(file).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}
