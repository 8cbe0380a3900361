import type { Agent } from 'stanza';
import { parseProviderConfig } from '../../src/protocol/config';
import { CLIENT_VERSION } from '../../src/protocol/constants';
import { clientFor, login, withTimeout } from '../support/plainXmpp';

const WAIT_MS = 10_000;

/** A plain XMPP client in a room, as Gajim or Conversations would be; disconnect it when done. */
export interface PlainClient {
  readonly client: Agent;
  /** The occupant address of the one whose presence says `<nick>` this name (a Parley person). */
  readonly addressOf: (displayName: string) => Promise<string>;
}

/**
 * StanzaJS as others ship it (no Parley stanzas), logged in with a config from the app's own
 * config service, joined under `nickname`, a name its person chose.
 */
export async function plainClientIn(appUrl: string, roomAddress: string, nickname: string): Promise<PlainClient> {
  const response = await fetch(new URL('/api/config', appUrl), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ clientVersion: CLIENT_VERSION }) });
  const client = clientFor(parseProviderConfig(await response.json()), undefined, false);
  const seen = new Map<string, string>();
  client.on('presence', (presence) => {
    if (presence.nick) seen.set(presence.nick, presence.from);
  });
  await login(client);
  await withTimeout(client.joinRoom(roomAddress, nickname), WAIT_MS, 'the plain client’s join');
  // The room lists everyone before the join completes: who is there is known by now.
  const addressOf = async (displayName: string): Promise<string> => {
    const address = seen.get(displayName);
    if (address === undefined) throw new Error(`no one named ${displayName} in the room, as the plain client sees it`);
    return address;
  };
  return { client, addressOf };
}
