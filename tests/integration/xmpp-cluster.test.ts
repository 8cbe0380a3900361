// Two ejabberd nodes in one Erlang/Mnesia cluster on loopback (127.0.0.2 and 127.0.0.3), seen
// through plain StanzaJS clients: people on different nodes share a room, and the people of a node
// that dies carry on through the other. Chat, lock, kick and an IQ to an occupant cross the nodes.
import { randomUUID } from 'node:crypto';
import type { Agent } from 'stanza';
import type { Presence, ReceivedMessage, ReceivedMUCPresence } from 'stanza/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth/jwt';
import { freeLoopbackPort } from '../../server/xmpp/freeLoopbackPort';
import { startXmppServer, type XmppServer, type XmppServerOptions } from '../../server/xmpp/XmppServer';
import { lockForm } from '../../src/shared-worker/rooms/roomLockForm';
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

function newRoomJid(): string {
  return `room-${randomUUID().slice(0, 8)}@${MUC_DOMAIN}`;
}

function join(client: Agent, roomJid: string, nick: string, password?: string): Promise<ReceivedMUCPresence> {
  return withTimeout(client.joinRoom(roomJid, nick, password === undefined ? {} : { muc: { type: 'join', password } }), STEP_TIMEOUT_MS, `${nick} joining`);
}

function refusalOf(joining: Promise<ReceivedMUCPresence>): Promise<string | undefined> {
  return joining.then(
    () => undefined,
    (error: unknown) => (error as Presence).error?.condition,
  );
}

/** Alice on node A starts the room (its owner), Bob on node B joins it; resolves once Alice has seen Bob. */
async function aliceOnAAndBobOnB(roomJid: string): Promise<{ alice: Agent; bob: Agent; bobSelf: ReceivedMUCPresence }> {
  const alice = await personOn(nodeA, newId('alice'));
  const bob = await personOn(nodeB, newId('bob'));
  const bobNick = bob.jid.split('/')[1] ?? '';
  await join(alice, roomJid, alice.jid.split('/')[1] ?? '');
  const aliceSeesBob = withTimeout(
    new Promise<void>((resolve) => alice.on('muc:available', (presence) => presence.from === `${roomJid}/${bobNick}` && resolve())),
    STEP_TIMEOUT_MS,
    'alice seeing bob',
  );
  const bobSelf = await join(bob, roomJid, bobNick);
  await aliceSeesBob;
  return { alice, bob, bobSelf };
}

function nickOf(client: Agent): string {
  return client.jid.split('/')[1] ?? '';
}

function newId(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

describe('ejabberd cluster: people on different nodes share rooms', () => {
  it('shows a person on node A and a person on node B to each other, with the <user> element, and carries their chat both ways', async () => {
    const roomJid = newRoomJid();
    const { alice, bob, bobSelf } = await aliceOnAAndBobOnB(roomJid);
    expect(bobSelf.talkyUser?.sid).toBe(nickOf(bob));

    const fromB = nextGroupchat(alice, 'hello from node B');
    bob.sendMessage({ to: roomJid, type: 'groupchat', body: 'hello from node B' });
    expect((await fromB).from).toBe(`${roomJid}/${nickOf(bob)}`);
    const fromA = nextGroupchat(bob, 'hello from node A');
    alice.sendMessage({ to: roomJid, type: 'groupchat', body: 'hello from node A' });
    expect((await fromA).from).toBe(`${roomJid}/${nickOf(alice)}`);
  });

  it('lets the owner on node A lock the room and kick a person on node B, who stays out', async () => {
    const roomJid = newRoomJid();
    const { alice, bob } = await aliceOnAAndBobOnB(roomJid);
    await withTimeout(alice.configureRoom(roomJid, lockForm('sesame')), STEP_TIMEOUT_MS, 'locking');
    const info = await withTimeout(bob.getDiscoInfo(roomJid), STEP_TIMEOUT_MS, 'room info');
    expect(info.features).toContain('muc_passwordprotected');
    const carol = await personOn(nodeB, newId('carol'));
    expect(await refusalOf(join(carol, roomJid, nickOf(carol)))).toBe('not-authorized');

    const bobKicked = withTimeout(
      new Promise<ReceivedMUCPresence>((resolve) => bob.on('muc:unavailable', (presence) => presence.from === `${roomJid}/${nickOf(bob)}` && resolve(presence))),
      STEP_TIMEOUT_MS,
      'bob kicked',
    );
    await withTimeout(alice.setRoomAffiliation(roomJid, bob.jid.split('/')[0] ?? '', 'outcast'), STEP_TIMEOUT_MS, 'kicking bob');
    expect((await bobKicked).muc.statusCodes).toContain('301');
    expect(await refusalOf(join(bob, roomJid, nickOf(bob), 'sesame'))).toBe('forbidden');
  });

  it('carries an IQ to an occupant of the other node, as call signalling (Jingle) goes', async () => {
    const roomJid = newRoomJid();
    const { alice, bob } = await aliceOnAAndBobOnB(roomJid);
    // StanzaJS answers pings itself: the answer comes back through the room from node B.
    await withTimeout(alice.ping(`${roomJid}/${nickOf(bob)}`), STEP_TIMEOUT_MS, 'ping to bob through the room');
    await withTimeout(bob.ping(`${roomJid}/${nickOf(alice)}`), STEP_TIMEOUT_MS, 'ping to alice through the room');
  });

  it('makes one room of first joins on both nodes at the same moment: each sees the other and their chat', async () => {
    // Several new rooms, each joined at once from both nodes: without one home node per room, each
    // node would start its own room of that name.
    for (const roomJid of [newRoomJid(), newRoomJid(), newRoomJid(), newRoomJid(), newRoomJid()]) {
      const [alice, bob] = await Promise.all([personOn(nodeA, newId('alice')), personOn(nodeB, newId('bob'))]);
      const aliceSeesBob = withTimeout(
        new Promise<void>((resolve) => alice.on('muc:available', (presence) => presence.from === `${roomJid}/${nickOf(bob)}` && resolve())),
        STEP_TIMEOUT_MS,
        `alice seeing bob in ${roomJid}`,
      );
      await Promise.all([join(alice, roomJid, nickOf(alice)), join(bob, roomJid, nickOf(bob))]);
      await aliceSeesBob;
      const fromA = nextGroupchat(bob, 'one room');
      alice.sendMessage({ to: roomJid, type: 'groupchat', body: 'one room' });
      await fromA;
    }
  });

  // Last: it kills node B.
  it('lets the person of a node that dies rejoin through the other node and carry on', async () => {
    const roomJid = newRoomJid();
    const { alice, bob } = await aliceOnAAndBobOnB(roomJid);
    const bobDropped = withTimeout(new Promise<void>((resolve) => bob.once('disconnected', () => resolve())), STEP_TIMEOUT_MS, 'bob dropped');
    await nodeB.kill();
    await bobDropped;

    const bobAgain = await personOn(nodeA, nickOf(bob));
    await join(bobAgain, roomJid, nickOf(bob));
    const afterFailover = nextGroupchat(alice, 'back through node A');
    bobAgain.sendMessage({ to: roomJid, type: 'groupchat', body: 'back through node A' });
    expect((await afterFailover).from).toBe(`${roomJid}/${nickOf(bob)}`);
    const toBobAgain = nextGroupchat(bobAgain, 'welcome back');
    alice.sendMessage({ to: roomJid, type: 'groupchat', body: 'welcome back' });
    await toBobAgain;
  });
});
