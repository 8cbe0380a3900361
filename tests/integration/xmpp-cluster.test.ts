// Two ejabberd nodes in one Erlang/Mnesia cluster on loopback (127.0.0.2 and 127.0.0.3), seen
// through plain StanzaJS clients: people on different nodes share a room, and the people of a node
// that dies carry on through the other.
import { randomUUID } from 'node:crypto';
import type { Agent } from 'stanza';
import type { ReceivedMessage } from 'stanza/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth/jwt';
import { freeLoopbackPort } from '../../server/xmpp/freeLoopbackPort';
import { startXmppServer, type XmppServer, type XmppServerOptions } from '../../server/xmpp/XmppServer';
import { clientFor, login, usePlainClients, withTimeout } from '../support/xmppClient';

const DOMAIN = 'parley.localhost';
const MUC_DOMAIN = `rooms.${DOMAIN}`;
const TOKEN_SECRET = `test-secret-${randomUUID()}`;
/** Guards against waiting forever; not a sleep. */
const STEP_TIMEOUT_MS = 10_000;

const track = usePlainClients();
let nodeA: XmppServer;
let nodeB: XmppServer;

beforeAll(async () => {
  // Every node of a cluster listens for Erlang distribution on the same port, each on its own address.
  const distributionPort = await freeLoopbackPort();
  const options = (address: string, join: string[]): XmppServerOptions => ({
    implementation: 'ejabberd',
    domain: DOMAIN,
    mucDomain: MUC_DOMAIN,
    tokenSecret: TOKEN_SECRET,
    cluster: { address, distributionPort, join },
  });
  nodeA = await startXmppServer(options('127.0.0.2', []));
  nodeB = await startXmppServer(options('127.0.0.3', [nodeA.nodeName ?? '']));
}, 120_000);

afterAll(async () => {
  await Promise.all([nodeB?.stop(), nodeA?.stop()]);
});

/** A person logged in on one node, as the app logs in: the config service's token (sub and jid) as the password. */
async function personOn(node: XmppServer, userId: string): Promise<Agent> {
  const credential = signToken(TOKEN_SECRET, { sub: userId, jid: `${userId}@${DOMAIN}`, exp: Math.floor(Date.now() / 1000) + 600 });
  const client = track(clientFor({ userId: `${userId}@${DOMAIN}`, credential, id: userId, signalingUrl: node.websocketUrl }));
  await login(client);
  return client;
}

function nextGroupchat(client: Agent, body: string): Promise<ReceivedMessage> {
  return withTimeout(
    new Promise<ReceivedMessage>((resolve) => {
      const listener = (message: ReceivedMessage): void => {
        if (message.type !== 'groupchat' || message.body !== body) return;
        client.off('groupchat', listener);
        resolve(message);
      };
      client.on('groupchat', listener);
    }),
    STEP_TIMEOUT_MS,
    `groupchat '${body}'`,
  );
}

describe('ejabberd cluster: people on different nodes share rooms; a dead node’s people carry on through another', () => {
  it('lets a person on node A and a person on node B see each other and chat; after B dies its person rejoins through A', async () => {
    const roomJid = `room-${randomUUID().slice(0, 8)}@${MUC_DOMAIN}`;
    const alice = await personOn(nodeA, 'alice');
    const bob = await personOn(nodeB, 'bob');
    await withTimeout(alice.joinRoom(roomJid, 'alice'), STEP_TIMEOUT_MS, 'alice joining');
    const aliceSeesBob = withTimeout(
      new Promise<void>((resolve) => alice.on('muc:available', (presence) => presence.from === `${roomJid}/bob` && resolve())),
      STEP_TIMEOUT_MS,
      'alice seeing bob',
    );
    const bobSelf = await withTimeout(bob.joinRoom(roomJid, 'bob'), STEP_TIMEOUT_MS, 'bob joining');
    await aliceSeesBob;
    expect(bobSelf.talkyUser?.sid).toBe('bob');

    const fromB = nextGroupchat(alice, 'hello from node B');
    bob.sendMessage({ to: roomJid, type: 'groupchat', body: 'hello from node B' });
    expect((await fromB).from).toBe(`${roomJid}/bob`);
    const fromA = nextGroupchat(bob, 'hello from node A');
    alice.sendMessage({ to: roomJid, type: 'groupchat', body: 'hello from node A' });
    expect((await fromA).from).toBe(`${roomJid}/alice`);

    const bobDropped = withTimeout(new Promise<void>((resolve) => bob.once('disconnected', () => resolve())), STEP_TIMEOUT_MS, 'bob dropped');
    await nodeB.kill();
    await bobDropped;

    const bobAgain = await personOn(nodeA, 'bob');
    await withTimeout(bobAgain.joinRoom(roomJid, 'bob'), STEP_TIMEOUT_MS, 'bob rejoining through node A');
    const afterFailover = nextGroupchat(alice, 'back through node A');
    bobAgain.sendMessage({ to: roomJid, type: 'groupchat', body: 'back through node A' });
    expect((await afterFailover).from).toBe(`${roomJid}/bob`);
    const toBobAgain = nextGroupchat(bobAgain, 'welcome back');
    alice.sendMessage({ to: roomJid, type: 'groupchat', body: 'welcome back' });
    await toBobAgain;
  }, 60_000);
});
