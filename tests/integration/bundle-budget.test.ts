import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { SourceMap } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUNDLE_TARGETS_KB, measureBundles, type BundleSizes } from '../../scripts/bench/bundles';
import { COMPILE_ALL_HINT } from '../../scripts/vite/compileHints';
import { WORTH_COMPRESSING_BYTES } from '../../scripts/vite/precompress';

function partition<Item>(items: Item[], test: (item: Item) => boolean): [Item[], Item[]] {
  return [items.filter(test), items.filter((item) => !test(item))];
}

const ROOT = new URL('../../', import.meta.url).pathname;

// One build for every case below; sizes, not timings: the same build always weighs the same.
let outDir: string;
let sizes: BundleSizes;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), 'parley-bundles-'));
  // `npm run build` as it is, in a process of its own: inside vitest NODE_ENV is "test", which would build the libraries' development code.
  await promisify(execFile)(join(ROOT, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  sizes = measureBundles(outDir);
}, 180_000);

afterAll(() => rmSync(outDir, { recursive: true, force: true }));

/** The sources of these scripts; rolldown's small runtime helper has no source map. */
const sourcesOf = (scripts: string[]) =>
  scripts.filter((script) => existsSync(join(outDir, `${script}.map`))).flatMap((script) => (JSON.parse(readFileSync(join(outDir, `${script}.map`), 'utf8')) as { sources: string[] }).sources);

describe('What a page loads before its first frame stays within its gzip budget', () => {
  it('the call page: the room view and the call code, without mediasoup-client, the owner dialogs, the room names\' stringprep or StanzaJS\'s file transfer', () => {
    expect(sizes.callPage, sizes.files.callPage.join(', ')).toBeLessThanOrEqual(BUNDLE_TARGETS_KB.callPage);
    // The relay's client library loads only when a call goes to the relay; the owner's dialogs when shown.
    expect(sizes.modules.callPage.filter((key) => /mediasoup-client|LockRoomControl|DestroyRoomControl/.test(key))).toEqual([]);
    // The page reads its own room name without the XMPP localpart rules (10 KB gzip) unless the name needs them (protocol/roomLocalpart.ts).
    const sources = sourcesOf(sizes.files.callPage);
    expect(sources.some((source) => source.includes('node_modules/stanza/jingle/SessionManager.js'))).toBe(true);
    expect(sources.filter((source) => /stringprep|punycode|src\/protocol\/rooms\.ts$|stanza\/jingle\/FileTransferSession/.test(source))).toEqual([]);
  });

  it('the owner’s destroy dialog parses room addresses with StanzaJS’s JID module, not its whole client', () => {
    const manifest = JSON.parse(readFileSync(join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string; imports?: string[] }>;
    const dialog = Object.keys(manifest).find((key) => key.endsWith('src/ui/DestroyRoomControl.tsx'));
    expect(dialog).toBeDefined();
    const closure = new Set<string>();
    const visit = (key: string): void => {
      if (closure.has(key)) return;
      closure.add(key);
      for (const imported of manifest[key]!.imports ?? []) visit(imported);
    };
    visit(dialog!);
    const sources = sourcesOf([...closure].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js')));
    expect(sources.some((source) => source.endsWith('node_modules/stanza/JID.js'))).toBe(true);
    expect(sources.filter((source) => /node_modules\/stanza\/(Client|index)\.js$/.test(source))).toEqual([]);
  });

  it('the call page of a newcomer to a call on the relay, within the call page’s budget, loads mediasoup-client without what no browser of Parley’s runs: React Native’s handler, its tests’ fakes, `debug`, a second `events`', () => {
    expect(sizes.callPageOnRelay, sizes.files.callPageOnRelay.join(', ')).toBeLessThanOrEqual(BUNDLE_TARGETS_KB.callPage);
    const relayClient = sizes.files.callPageOnRelay.filter((file) => !sizes.files.callPage.includes(file));
    expect(relayClient.length).toBeGreaterThan(0);
    const sources = relayClient.flatMap((file) => (JSON.parse(readFileSync(join(outDir, `${file}.map`), 'utf8')) as { sources: string[] }).sources);
    expect(sources.some((source) => source.includes('mediasoup-client/lib/Device.js'))).toBe(true);
    expect(sources.filter((source) => /ReactNative106|FakeHandler|fakeParameters|fake-mediastreamtrack|node_modules\/(debug|ms|events-alias)\//.test(source))).toEqual([]);
  });

  it('the shared worker', () => {
    expect(sizes.sharedWorker).toBeLessThanOrEqual(BUNDLE_TARGETS_KB.sharedWorker);
  });

  it('the pop-out chat, which never loads the call code, nor the room names\' stringprep (its entry chunk is every page\'s)', () => {
    expect(sizes.chatPopout, sizes.files.chatPopout.join(', ')).toBeLessThanOrEqual(BUNDLE_TARGETS_KB.chatPopout);
    expect(sizes.modules.chatPopout).not.toContain('src/main-thread/callTab/createTabCallRuntime.ts');
    // StanzaJS's stringprep tables (about 12 KB gzip) came into the entry chunk with protocol/rooms.ts,
    // reached from the tab's atoms through protocol/roomLookup.ts.
    const sources = sizes.files.chatPopout.flatMap((script) => (JSON.parse(readFileSync(join(outDir, `${script}.map`), 'utf8')) as { sources: string[] }).sources);
    expect(sources.filter((source) => /stringprep|punycode|src\/protocol\/rooms\.ts$/.test(source))).toEqual([]);
  });
});

describe('The shared worker’s first script starts what the join needs, and its session carries only what it uses (issue 14, the join path)', () => {
  it('the shared worker’s first script starts the stored identity’s read and then loads the session; StanzaJS is not in it (issue 14, the join path)', () => {
    const [first, ...loaded] = sizes.files.sharedWorker;
    const code = readFileSync(join(outDir, first!), 'utf8');
    const sources = (JSON.parse(readFileSync(join(outDir, `${first}.map`), 'utf8')) as { sources: string[] }).sources;
    expect(sources.filter((source) => source.includes('node_modules/'))).toEqual([]);
    expect(code.indexOf('indexedDB.open')).toBeGreaterThan(-1);
    const session = loaded.find((file) => /\/sessionWorker-[^/]+\.js$/.test(file));
    expect(session).toBeDefined();
    const imported = /\bimport\(\s*[`"']\.\/([^`"']+)[`"']\s*\)/.exec(code)?.[1];
    expect(imported).toBe(session!.replace(/^.*\//, ''));
  });

  it('the shared worker’s session carries none of StanzaJS’s Jingle sessions, SDP code or plugins Parley does not use (issue 14, the join path: the worker compiles it while the login made ahead waits)', () => {
    const session = sizes.files.sharedWorker.find((file) => /\/sessionWorker-[^/]+\.js$/.test(file))!;
    const sources = (JSON.parse(readFileSync(join(outDir, `${session}.map`), 'utf8')) as { sources: string[] }).sources;
    const stanzaModules = sources.filter((source) => source.includes('node_modules/stanza/'));
    expect(stanzaModules.length).toBeGreaterThan(0);
    expect(stanzaModules.filter((source) => /\/stanza\/(jingle\/|plugins\/(?!(bind|connection|disco|entity|features|hostmeta|messaging|muc|sasl)\.js))/.test(source))).toEqual([]);
  });
});

describe('A page’s scripts arrive early and ready: started before the entry, served compressed, compiled as they stream in (issue 14, the join path)', () => {
  it('the page starts, before its entry script has arrived, the session worker the entry starts (the same script and name) and, on a room’s page, the room view and the call code at low priority (issue 14, the join path)', () => {
    const html = readFileSync(join(outDir, 'index.html'), 'utf8');
    const early = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1] ?? '';
    const entry = readFileSync(join(outDir, sizes.files.callPage.find((file) => /\/index-[^/]+\.js$/.test(file))!), 'utf8');
    const started = /new SharedWorker\(\s*new URL\(\s*([`"'])([^`"']+)\1/.exec(entry)?.[2];
    expect(started).toBeDefined();
    expect(early).toContain(`new SharedWorker(${JSON.stringify(started)}, {type:\`module\`,name:\`parley-session\`})`);
    const preloaded = JSON.parse(/for \(const href of (\[[^\]]*\])\)/.exec(early)?.[1] ?? '[]') as string[];
    const roomCode = sizes.files.callPage.filter((file) => /\/(RoomView|createTabCallRuntime)-/.test(file)).map((file) => `/${file}`);
    expect(roomCode).toHaveLength(2);
    expect(preloaded).toEqual(expect.arrayContaining(roomCode));
    // Behind the worker's script, config and session code on the origin's connections.
    expect(early).toContain(`link.fetchPriority = 'low';`);
  });

  it('every script a page or the worker loads has a brotli and a gzip copy beside it, each the script itself (the gateway serves them); one too small to gain has none', () => {
    const scripts = [...new Set([...sizes.files.callPage, ...sizes.files.sharedWorker, ...sizes.files.chatPopout])];
    const [small, worth] = partition(scripts, (script) => statSync(join(outDir, script)).size < WORTH_COMPRESSING_BYTES);
    expect(worth.length).toBeGreaterThan(3);
    for (const script of small) expect(existsSync(join(outDir, `${script}.br`)), `${script}.br`).toBe(false);
    for (const script of worth) {
      const content = readFileSync(join(outDir, script));
      expect(brotliDecompressSync(readFileSync(join(outDir, `${script}.br`))).equals(content), `${script}.br`).toBe(true);
      expect(gunzipSync(readFileSync(join(outDir, `${script}.gz`))).equals(content), `${script}.gz`).toBe(true);
    }
  });

  it('every script of the pages asks V8 to compile all of it as it loads, its source map still true; the shared worker’s scripts leave V8 to compile as they run (issue 14, long tasks while joining)', () => {
    const read = (file: string) => readFileSync(join(outDir, file), 'utf8');
    for (const script of new Set([...sizes.files.callPage, ...sizes.files.chatPopout])) expect(read(script).startsWith(`${COMPILE_ALL_HINT}\n`), script).toBe(true);
    for (const script of sizes.files.sharedWorker) expect(read(script), script).not.toContain(COMPILE_ALL_HINT);
    const entry = sizes.files.callPage.find((file) => /\/index-[^/]+\.js$/.test(file))!;
    const code = read(entry);
    const at = code.indexOf('new SharedWorker(');
    const line = code.slice(0, at).split('\n').length - 1;
    const column = at - (code.lastIndexOf('\n', at - 1) + 1);
    const mapped = new SourceMap(JSON.parse(read(`${entry}.map`)) as ConstructorParameters<typeof SourceMap>[0]).findEntry(line, column);
    expect('originalSource' in mapped ? mapped.originalSource : undefined).toMatch(/src\/main-thread\/SessionBridge\.ts$/);
  });
});
