import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import type { ParleySettings } from '../../server/settings';
import { parseProviderConfig, type ConfigRequestBody, type ProviderConfig } from '../../src/protocol/config';
import { CLIENT_VERSION } from '../../src/protocol/constants';
import { startTestParley } from './testParley';

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
