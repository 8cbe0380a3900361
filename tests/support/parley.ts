import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import type { ParleySettings } from '../../server/settings';
import { parseProviderConfig, type ConfigRequestBody, type ProviderConfig } from '../../src/protocol/config';
import { CLIENT_VERSION } from '../../src/protocol/constants';
import { startTestParley, temporaryDataDir } from './testParley';

/**
 * A Parley (the real gateway in front of a real Prosody) on a free port, with a temporary data folder, for the test file: started
 * before its first test, stopped after its last. Returns the running servers (inside tests only).
 */
export function useParley(overrides: Partial<ParleySettings> = {}, log?: (line: string) => void): () => RunningParley {
  let running: RunningParley | undefined;
  beforeAll(async () => {
    running = await startTestParley(overrides, log);
  });
  afterAll(async () => {
    await running?.stop();
  });
  return () => {
    if (!running) throw new Error('Parley runs only while the test file does');
    return running;
  };
}

/**
 * A Parley the test starts and stops itself, as often as it likes, on one data folder that
 * outlives its restarts (a fresh one per test): whatever still runs after the test is stopped, and
 * the folder removed. No relay unless `overrides` asks for one.
 */
export function useRestartedParley(): {
  start(overrides?: Partial<ParleySettings>): Promise<RunningParley>;
  stop(): Promise<void>;
  dataDir(): string;
} {
  let running: RunningParley | undefined;
  let dataDir: string | undefined;
  const stop = async (): Promise<void> => {
    await running?.stop();
    running = undefined;
  };
  afterEach(async () => {
    await stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });
  return {
    async start(overrides = {}) {
      dataDir ??= await temporaryDataDir();
      running = await startTestParley({ relayWorkers: 0, ...overrides, dataDir });
      return running;
    },
    stop,
    dataDir: () => {
      if (!dataDir) throw new Error('no Parley started in this test');
      return dataDir;
    },
  };
}

/**
 * A config from the config service (SPEC §7), as any client gets one: its own user, resource and
 * credential; `request` adds a product token or the guest identity credential a browser kept.
 */
export async function providerConfig(server: Pick<RunningParley, 'url'>, request: Omit<ConfigRequestBody, 'clientVersion'> = {}): Promise<ProviderConfig> {
  const body: ConfigRequestBody = { clientVersion: CLIENT_VERSION, ...request };
  const response = await fetch(new URL('/api/config', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return parseProviderConfig(await response.json());
}
