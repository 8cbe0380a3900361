import { afterAll, beforeAll, expect } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import type { ParleySettings } from '../../server/settings';
import { parseProviderConfig, type ProviderConfig } from '../../src/protocol/config';
import { CLIENT_VERSION } from '../../src/protocol/constants';
import { startTestParley } from './testParley';

/**
 * A Parley (the real gateway in front of a real Prosody) on a free port, with a temporary data folder, for the test file: started
 * before its first test, stopped after its last. Returns the running servers (inside tests only).
 */
export function useParley(overrides: Partial<ParleySettings> = {}): () => RunningParley {
  let running: RunningParley | undefined;
  beforeAll(async () => {
    running = await startTestParley(overrides);
  });
  afterAll(async () => {
    await running?.stop();
  });
  return () => {
    if (!running) throw new Error('Parley runs only while the test file does');
    return running;
  };
}

/** A config from the config service (SPEC §7), as any client gets one: its own user, resource and credential. */
export async function providerConfig(server: RunningParley): Promise<ProviderConfig> {
  const response = await fetch(new URL('/api/config', server.url), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientVersion: CLIENT_VERSION }),
  });
  expect(response.status).toBe(200);
  return parseProviderConfig(await response.json());
}
