import { defineConfig } from 'vitest/config';

/** The signalling suites: they run once against Prosody and once against ejabberd (PARLEY_XMPP_SERVER). */
const SIGNALLING_SUITES = ['rooms', 'rooms-durable', 'rooms-moderation', 'rooms-waiting', 'rooms-expiry', 'identity', 'chat', 'chat-delivery', 'calls', 'xmpp-server', 'payload-guard', 'gateways', 'stanza-definitions', 'login-ahead'].map((name) => `tests/integration/${name}.test.ts`);
/** What only ejabberd does: its nodes join into one cluster. */
const EJABBERD_SUITES = ['tests/integration/xmpp-cluster.test.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Integration files each start their own servers on free ports, so they can run side by side.
    fileParallelism: true,
    // Vitest's default on two cores is one file at a time; most of an integration file's time is
    // spent waiting on its servers (starting, answering), which the other file's work fills.
    maxWorkers: 2,
    // Every file shares its worker's loaded modules: each loads much of src/ (integration files the
    // servers, StanzaJS and mediasoup too), and loading it afresh for every file took longer than
    // the unit cases (27 against 11 s on two workers) and a quarter of the integration run's time
    // (the whole vitest run 255 s isolated, 200 s shared). A case that needs a module loaded afresh
    // resets the modules itself; one that stubs a global or fakes the clock restores it. A file
    // leaves no request of its own unanswered: its timeout's rejection would fail the next file.
    isolate: false,
    projects: [
      { extends: true, test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      { extends: true, test: { name: 'prosody', include: ['tests/integration/**/*.test.ts'], exclude: EJABBERD_SUITES } },
      { extends: true, test: { name: 'ejabberd', include: [...SIGNALLING_SUITES, ...EJABBERD_SUITES], env: { PARLEY_XMPP_SERVER: 'ejabberd' } } },
    ],
  },
});
