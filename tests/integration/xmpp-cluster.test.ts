// Two ejabberd nodes in one Erlang/Mnesia cluster on loopback (127.0.0.2 and 127.0.0.3), each with
// its own gateway, as a deployment runs them (README "How it scales out"). Seen through plain
// StanzaJS clients: people on different nodes share a room; chat, lock, kick and an IQ to an
// occupant cross the nodes. Seen through Parley's own sessions: a room outlives the node it ran on.
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { dirname, join as joinPath } from 'node:path';
import type { Agent } from 'stanza';
import type { Presence, ReceivedMessage, ReceivedMUCPresence } from 'stanza/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signToken } from '../../server/auth/jwt';
import { parleyCacheDir } from '../../server/cacheDir';
import type { RunningParley } from '../../server/Parley';
import type { ParleySettings } from '../../server/settings';
import { freeLoopbackPort } from '../../server/xmpp/freeLoopbackPort';
import { lockForm } from '../../src/shared-worker/rooms/roomLockForm';
import { FailoverFront } from '../support/FailoverFront';
import type { ProviderConfig } from '../../src/protocol/config';
import { MemoryIdentityStorage } from '../../src/shared-worker/identity/IdentityStorage';
import { connected, joinedBy, peerNamed, roomInState, useSessions, waitFor, WAIT_MS, type JoinedRoom, type TestSession } from '../support/sessions';
import { startTestParley } from '../support/testParley';
import { clientFor, login, usePlainClients, withTimeout } from '../support/xmppClient';

const DOMAIN = 'parley.localhost';
const MUC_DOMAIN = `rooms.${DOMAIN}`;
const TOKEN_SECRET = `test-secret-${randomUUID()}`;
/** Guards against waiting forever; not a sleep. */
const STEP_TIMEOUT_MS = 10_000;

const track = usePlainClients();
const openSession = useSessions();
let nodeA: RunningParley;
let nodeB: RunningParley;

beforeAll(async () => {
  // Every node of a cluster listens for Erlang distribution on the same port, each on its own address.
  const distributionPort = await freeLoopbackPort();
  const node = (address: string, join: string[]): Partial<ParleySettings> => ({
    host: address,
    xmppServer: 'ejabberd',
    xmppDomain: DOMAIN,
    mucDomain: MUC_DOMAIN,
    tokenSecret: TOKEN_SECRET,
    xmppCluster: { address, distributionPort, join },
    relayWorkers: 0,
  });
  nodeA = await startTestParley(node('127.0.0.2', []));
  nodeB = await startTestParley(node('127.0.0.3', [nodeA.xmpp.nodeName ?? '']));
}, 120_000);

afterAll(async () => {
  await Promise.all([nodeB?.stop(), nodeA?.stop()]);
});

/** The config a person on one node logs in with, as the app's: the config service's token (sub and jid) as the password. */
function loginOn(node: RunningParley, userId: string): Pick<ProviderConfig, 'userId' | 'credential' | 'id' | 'signalingUrl'> {
  const credential = signToken(TOKEN_SECRET, { sub: userId, jid: `${userId}@${DOMAIN}`, exp: Math.floor(Date.now() / 1000) + 600 });
  return { userId: `${userId}@${DOMAIN}`, credential, id: userId, signalingUrl: node.xmpp.websocketUrl };
}

/** A person logged in on one node. */
async function personOn(node: RunningParley, userId: string): Promise<Agent> {
  const client = track(clientFor(loginOn(node, userId)));
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

});

describe("ejabberd cluster: the nodes' shared cookie is not on their command line, which every local user can read", () => {
  it("keeps it in the .erlang.cookie of a home folder of ejabberd's own, which only its user can read", async () => {
    for (const node of [nodeA, nodeB]) {
      const commandLine = (await readFile(`/proc/${node.xmpp.pid}/cmdline`, 'utf8')).split('\0');
      expect(commandLine).not.toContain('-setcookie');
      const home = commandLine[commandLine.indexOf('-home') + 1]!;
      expect((await stat(home)).mode & 0o777).toBe(0o700);
      expect((await stat(`${home}/.erlang.cookie`)).mode & 0o777).toBe(0o600);
    }
  });
});

describe("ejabberd cluster: the Parley module ejabberd loads is compiled into the user's own cache, not a shared /tmp path", () => {
  it('loads it from a folder under parleyCacheDir that only its user can enter', async () => {
    const modulesDir = joinPath(parleyCacheDir(), 'ejabberd-module');
    expect((await stat(modulesDir)).mode & 0o777).toBe(0o700);
    for (const node of [nodeA, nodeB]) {
      const commandLine = (await readFile(`/proc/${node.xmpp.pid}/cmdline`, 'utf8')).split('\0');
      expect(dirname(commandLine[commandLine.indexOf('-pa') + 1]!)).toBe(modulesDir);
    }
  });
});

describe('ejabberd cluster: a room that ends by telling its people is not taken for one that stopped running', () => {
  it("sends a destroyed room's occupant on the other node the destroy, and no 332 after it", async () => {
    const roomJid = newRoomJid();
    const { alice, bob } = await aliceOnAAndBobOnB(roomJid);
    const fromRoom: string[] = [];
    const destroyed = withTimeout(
      new Promise<void>((resolve) =>
        bob.on('raw:incoming', (xml: string) => {
          if (!xml.startsWith('<presence') || !xml.includes(`from='${roomJid}`)) return;
          fromRoom.push(xml);
          if (xml.includes('<destroy')) resolve();
        }),
      ),
      STEP_TIMEOUT_MS,
      'the destroy reaching bob',
    );
    await withTimeout(alice.destroyRoom(roomJid, { reason: 'done' }), STEP_TIMEOUT_MS, 'destroying');
    await destroyed;
    // Bob's session handles the room's end (its process's exit) before this ping: a 332 would be here by now.
    await withTimeout(bob.ping(), STEP_TIMEOUT_MS, 'ping');
    expect(fromRoom.filter((xml) => xml.includes("code='332'"))).toEqual([]);
  });
});

describe('ejabberd cluster: a node that crashes is started again by its supervisor and joins the cluster again', () => {
  it('shares rooms with the other node once it is back, its Mnesia folder kept', async () => {
    const crashed = nodeB.xmpp;
    process.kill(crashed.pid!, 'SIGKILL');
    await expect.poll(() => nodeB.xmpp !== crashed, { timeout: 60_000, interval: 100 }).toBe(true);
    const roomJid = newRoomJid();
    const { alice, bob } = await aliceOnAAndBobOnB(roomJid);
    const fromB = nextGroupchat(alice, 'back in the cluster');
    bob.sendMessage({ to: roomJid, type: 'groupchat', body: 'back in the cluster' });
    await fromB;
  });
});

/** The room once the session is back in it after the failover, as `check` wants it. */
function rejoined(who: TestSession, roomId: string, what: string, check: (room: JoinedRoom) => boolean): Promise<JoinedRoom> {
  return waitFor(who, what, (state) => {
    const room = state.rooms[roomId] as JoinedRoom | undefined;
    return room?.roomState === 'joined' && check(room) ? room : undefined;
  });
}

// Last: it kills node B.
describe('ejabberd cluster: a room outlives the node it runs on (issue 16)', () => {
  it("keeps the room, its owner, lock and bans when its node dies: the others are brought back into it at once, the node's people rejoin through the other node; rooms elsewhere let go of who does not come back", async () => {
    // Bob's way in: node B's gateway while node B is up, then node A's (README "How it scales out": one address in front of the gateways).
    const front = await FailoverFront.start('127.0.0.4', [nodeB.url, nodeA.url]);
    try {
      const bob = openSession({ server: { url: front.url }, displayName: 'Bob' });
      const alice = openSession({ server: nodeA, displayName: 'Alice' });
      const carolBrowser = new MemoryIdentityStorage();
      const carol = openSession({ server: nodeA, displayName: 'Carol', identityStorage: carolBrowser });
      const name = `Failover ${randomUUID().slice(0, 8)}`;
      // Bob's join, the first, starts the room on node B, the node he is on: he owns it.
      const bobRoom = await joinedBy(bob, name);
      expect(bobRoom.selfAffiliation).toBe('owner');
      const address = bobRoom.address;
      await bob.rooms.lockRoom(address, 'hush');
      const aliceRoom = await joinedBy(alice, name, { password: 'hush' });
      await joinedBy(carol, name, { password: 'hush' });
      await bob.rooms.kickPeer((await peerNamed(bob, address, 'Carol')).address);
      await peerNamed(alice, address, 'Bob');
      // A plain client on node A whose stream dropped and was resumed (XEP-0198): its session moved
      // to a new process, and the watch on the room with it.
      const dan = await personOn(nodeA, newId('dan'));
      await join(dan, address, nickOf(dan), 'hush');
      // The stream drops; a new connection resumes it (the client's stream management state, loaded
      // into a new client: the old one's late stanzas cannot interleave with the resumption).
      const danState = { id: dan.sm.id, handled: dan.sm.handled, lastAck: dan.sm.lastAck, unacked: [], jid: dan.jid, allowResume: true };
      dan.transport!.disconnect(false);
      const danAgain = track(clientFor(loginOn(nodeA, nickOf(dan))));
      danAgain.sm.load(danState);
      const resumed = withTimeout(new Promise<void>((resolve) => danAgain.once('stream:management:resumed', () => resolve())), STEP_TIMEOUT_MS, 'dan resumed');
      void danAgain.connect();
      await resumed;
      const danTold = withTimeout(
        new Promise<ReceivedMUCPresence>((resolve) => danAgain.on('muc:unavailable', (presence) => presence.from === `${address}/${nickOf(dan)}` && resolve(presence))),
        STEP_TIMEOUT_MS,
        'dan told the room stopped',
      );

      // A room that runs on node A, with a person on node B who will not come back.
      const otherRoom = newRoomJid();
      const { alice: erin, bob: fay } = await aliceOnAAndBobOnB(otherRoom);
      const fayLeft = withTimeout(
        new Promise<void>((resolve) => erin.on('muc:unavailable', (presence) => presence.from === `${otherRoom}/${nickOf(fay)}` && resolve())),
        3 * STEP_TIMEOUT_MS,
        'the room on node A letting go of the person of node B',
      );

      await nodeB.killXmpp();
      await nodeB.stop();

      // Alice, on node A, is told the room stopped running and rejoins at once; Bob comes back
      // through node A at the same occupant address, and is its owner still.
      const bobAgain = await rejoined(bob, bobRoom.id, 'Bob back as owner', (room) => room.selfAffiliation === 'owner' && room.passwordRequired);
      expect(bobAgain).toMatchObject({ selfAddress: bobRoom.selfAddress, rid: bobRoom.rid });
      expect(new URL(bob.session.config!.signalingUrl).host).toBe(new URL(front.url).host);
      await rejoined(alice, aliceRoom.id, 'Alice back in the room', (room) => room.selfAddress === aliceRoom.selfAddress);
      expect((await danTold).muc.statusCodes).toEqual(expect.arrayContaining(['332', '110']));
      expect(alice.logs).toContain(`room ${address} stopped running on its server; rejoining`);
      const bobSeen = await peerNamed(alice, address, 'Bob');
      const aliceSeen = await peerNamed(bob, address, 'Alice');

      // Both are really in the room that runs now: their chat crosses it.
      const fromAlice = await alice.chat.sendChat(address, 'still here');
      const fromBob = await bob.chat.sendChat(address, 'back through node A');
      expect((await waitFor(bob, "Alice's message", (state) => state.messages[`${aliceSeen.address}:${fromAlice}`])).body).toBe('still here');
      expect((await waitFor(alice, "Bob's message", (state) => state.messages[`${bobSeen.address}:${fromBob}`])).body).toBe('back through node A');
      // Alice and Bob; Dan, a plain client, does not rejoin by himself.
      expect((await nodeA.xmpp.stats()).rooms[address]).toEqual({ occupants: 2 });

      // The lock and the ban held: a newcomer is asked for the password, and Carol (reloading her page) is still out.
      const dave = openSession({ server: nodeA, displayName: 'Dave' });
      await connected(dave);
      await roomInState(dave, await dave.rooms.joinRoom(name), 'password-required');
      const carolAgain = openSession({ server: nodeA, displayName: 'Carol', identityStorage: carolBrowser });
      await connected(carolAgain);
      expect(await roomInState(carolAgain, await carolAgain.rooms.joinRoom(name, { password: 'hush' }), 'banned')).toMatchObject({ banned: true });

      // The room that ran on node A let go of node B's person who did not come back (after the
      // resumption window a vanished session gets), with no chat needed to find out.
      await fayLeft;
    } finally {
      await front.close();
    }
  }, 6 * WAIT_MS);
});
