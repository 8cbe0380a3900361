// Rooms remember their owner, lock and bans (rooms-durable.test.ts) until nobody has been in them
// for PARLEY_ROOM_IDLE_EXPIRY_SECONDS: then the room goes, with all it remembered. Prosody does it
// in mod_muc_parley_room_persistence.lua, ejabberd in mod_parley_room_expiry.erl; this file runs
// against both (vitest projects prosody and ejabberd). Seen through plain XMPP clients.
import { randomUUID } from 'node:crypto';
import type { Agent } from 'stanza';
import type { ReceivedMUCPresence } from 'stanza/protocol';
import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/protocol/config';
import { lockForm } from '../../src/shared-worker/rooms/roomLockForm';
import { providerConfig, useParley } from '../support/parley';
import { WAIT_MS } from '../support/sessions';
import { clientFor, login, usePlainClients, withTimeout } from '../support/xmppClient';

// Registered first, so its teardown runs after the clients' (hooks unwind as a stack).
const parley = useParley({ roomIdleExpirySeconds: 1, relayWorkers: 0 });
const track = usePlainClients();

interface LoggedIn {
  client: Agent;
  config: ProviderConfig;
}

async function logIn(): Promise<LoggedIn> {
  const config = await providerConfig(parley());
  const client = track(clientFor(config));
  await login(client);
  return { client, config };
}

function join(who: LoggedIn, room: string): Promise<ReceivedMUCPresence> {
  return withTimeout(who.client.joinRoom(room, who.config.id), WAIT_MS, `joining ${room}`);
}

async function liveRoom(room: string): Promise<{ occupants: number } | undefined> {
  return (await parley().xmpp.stats()).rooms[room];
}

describe('PARLEY_ROOM_IDLE_EXPIRY_SECONDS: a room nobody is in expires, with its owner, lock and bans', () => {
  it('destroys the room left empty and keeps the one someone is in', async () => {
    const room = `left-${randomUUID().slice(0, 8)}@${parley().settings.mucDomain}`;
    const kept = `kept-${randomUUID().slice(0, 8)}@${parley().settings.mucDomain}`;
    const alice = await logIn();
    const bob = await logIn();
    await join(alice, room);
    await alice.client.configureRoom(room, lockForm('hush'));
    await alice.client.ban(room, bob.config.userId, 'kicked');
    await join(alice, kept);
    await withTimeout(alice.client.leaveRoom(room, alice.config.id), WAIT_MS, `leaving ${room}`);

    await expect.poll(() => liveRoom(room), { timeout: WAIT_MS }).toBeUndefined();
    expect(await liveRoom(kept)).toEqual({ occupants: 1 });
    // A new room of the same name: the once-banned Bob makes it, and owns it, with no password.
    expect((await join(bob, room)).muc).toMatchObject({ affiliation: 'owner' });
  });
});
