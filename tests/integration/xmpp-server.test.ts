// The project's XMPP server (a real Prosody or ejabberd with Parley's modules: the file runs against
// each, see vitest.config.ts) seen through StanzaJS, the client library the app uses: token login,
// the <user> presence element, room limits, whois, stats and the server's lifecycle.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Agent } from 'stanza';
import type { Presence, ReceivedMUCPresence } from 'stanza/protocol';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signToken, type TokenClaims } from '../../server/auth/jwt';
import { startXmppServer, type XmppServer, type XmppServerOptions } from '../../server/xmpp/XmppServer';
import { lockForm } from '../../src/shared-worker/rooms/roomLockForm';
import { parleyStanzas } from '../../src/protocol/stanzas';
import { isServerErrorLine, TESTED_XMPP_SERVER } from '../support/xmppServers';
import { withHandledAckRequests } from '../support/plainXmpp';

const DOMAIN = 'parley.localhost';
const MUC_DOMAIN = 'rooms.parley.localhost';
const TOKEN_SECRET = `test-secret-${randomUUID()}`;
const MAX_OCCUPANTS = 2;
/** Guards against waiting forever (StanzaJS's joinRoom has no timeout of its own); not a sleep. */
const STEP_TIMEOUT_MS = 5_000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The server's error output, checked after each test. */
const serverLog: string[] = [];
const serverOptions: XmppServerOptions = {
  implementation: TESTED_XMPP_SERVER,
  domain: DOMAIN,
  mucDomain: MUC_DOMAIN,
  tokenSecret: TOKEN_SECRET,
  maxOccupants: MAX_OCCUPANTS,
  log: (line) => serverLog.push(line),
};
let server: XmppServer;
const openClients = new Set<Agent>();

beforeAll(async () => {
  server = await startXmppServer(serverOptions);
});

afterEach(async () => {
  await Promise.all([...openClients].map(disconnect));
  openClients.clear();
  // Errors from Parley's server modules do not always show in the stanzas; they do in the log.
  const errorLines = serverLog.splice(0).filter(isServerErrorLine);
  expect(errorLines).toEqual([]);
});

afterAll(async () => {
  await server?.stop();
});

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Parley's ids look like this; unique per test so that users and rooms never collide. */
function newId(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** A login token as the config service issues them: `sub` (Prosody) and `jid` (ejabberd's native JWT auth) name the user. */
function tokenFor(userId: string, claims: TokenClaims = {}, secret = TOKEN_SECRET): string {
  return signToken(secret, { sub: userId, jid: `${userId}@${DOMAIN}`, exp: nowSeconds() + 3600, ...claims });
}

function within<T>(what: string, promise: Promise<T>, timeoutMs = STEP_TIMEOUT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms: ${what}`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

type LoginOutcome =
  | { status: 'session-started'; client: Agent; jid: string }
  | { status: 'refused'; saslCondition: string | undefined; sessionStarted: boolean };

/** Logs in as the app does: jid <id>@<domain>, resource <id>, the token as SASL PLAIN password. */
function logIn(userId: string, token: string, target: XmppServer = server): Promise<LoginOutcome> {
  const client = createClient({
    jid: `${userId}@${target.domain}`,
    password: token,
    resource: userId,
    transports: { websocket: target.websocketUrl, bosh: false },
  });
  // Parley's JXT definitions, among them <user xmlns='https://talky.io/ns/core'> as presence.talkyUser.
  client.use(parleyStanzas);
  withHandledAckRequests(client);
  openClients.add(client);
  let saslCondition: string | undefined;
  let authFailed = false;
  let sessionStarted = false;
  const outcome = new Promise<LoginOutcome>((resolve, reject) => {
    client.on('sasl', (sasl) => {
      if (sasl.type === 'failure') saslCondition = sasl.condition;
    });
    client.once('auth:failed', () => {
      authFailed = true;
    });
    client.once('session:started', () => {
      sessionStarted = true;
      resolve({ status: 'session-started', client, jid: client.jid });
    });
    // A refusal settles when the connection has ended, so that a late session:started would show.
    client.once('disconnected', () => {
      if (authFailed) resolve({ status: 'refused', saslCondition, sessionStarted });
      else reject(new Error(`${userId} was disconnected during login`));
    });
  });
  client.connect();
  return within(`login of ${userId}`, outcome);
}

async function logInOrFail(userId: string, claims: TokenClaims = {}, target: XmppServer = server): Promise<Agent> {
  const outcome = await logIn(userId, tokenFor(userId, claims), target);
  if (outcome.status !== 'session-started') throw new Error(`${userId} could not log in: ${JSON.stringify(outcome)}`);
  return outcome.client;
}

function disconnect(client: Agent): Promise<void> {
  // disconnect() ends in 'disconnected' whether or not a connection is open.
  const disconnected = new Promise<void>((resolve) => client.once('disconnected', () => resolve()));
  void client.disconnect();
  return within('client disconnect', disconnected);
}

function joinRoom(client: Agent, roomJid: string, nick: string, presence: Presence = {}): Promise<ReceivedMUCPresence> {
  return within(`${nick} joining ${roomJid}`, client.joinRoom(roomJid, nick, presence));
}

/** The next available presence `client` receives from the occupant `occupantJid`; call before the action that causes it. */
function nextPresenceFrom(client: Agent, occupantJid: string): Promise<ReceivedMUCPresence> {
  const presence = new Promise<ReceivedMUCPresence>((resolve) => {
    const listener = (received: ReceivedMUCPresence): void => {
      if (received.from !== occupantJid) return;
      client.off('muc:available', listener);
      resolve(received);
    };
    client.on('muc:available', listener);
  });
  return within(`presence from ${occupantJid}`, presence);
}

function newRoomJid(): string {
  return `${newId('room')}@${MUC_DOMAIN}`;
}

describe('token login: the SASL PLAIN password is an HS256 token for this user', () => {
  it('logs in with a token signed with the shared secret whose sub is the user', async () => {
    const userId = newId('alice');
    const outcome = await logIn(userId, tokenFor(userId));
    expect(outcome.status).toBe('session-started');
    if (outcome.status === 'session-started') expect(outcome.jid).toBe(`${userId}@${DOMAIN}/${userId}`);
  });

  it('matches sub case-insensitively and binds the lowercased username', async () => {
    const userId = `Mixed-${randomUUID().slice(0, 8)}`;
    const outcome = await logIn(userId, tokenFor(userId));
    expect(outcome.status).toBe('session-started');
    if (outcome.status === 'session-started') expect(outcome.jid).toBe(`${userId.toLowerCase()}@${DOMAIN}/${userId}`);
  });

  it('refuses a token signed with another secret', async () => {
    const userId = newId('mallory');
    const outcome = await logIn(userId, tokenFor(userId, {}, 'not-the-shared-secret'));
    expect(outcome).toEqual({ status: 'refused', saslCondition: 'not-authorized', sessionStarted: false });
  });

  it('refuses an expired token', async () => {
    const userId = newId('late');
    const outcome = await logIn(userId, tokenFor(userId, { exp: nowSeconds() - 60 }));
    expect(outcome).toEqual({ status: 'refused', saslCondition: 'not-authorized', sessionStarted: false });
  });

  it("refuses another user's token", async () => {
    const userId = newId('mallory');
    const outcome = await logIn(userId, tokenFor(newId('alice')));
    expect(outcome).toEqual({ status: 'refused', saslCondition: 'not-authorized', sessionStarted: false });
  });

  it('refuses a token whose jid claim is another address', async () => {
    const userId = newId('mallory');
    const outcome = await logIn(userId, tokenFor(userId, { jid: `${newId('alice')}@${DOMAIN}` }));
    expect(outcome).toEqual({ status: 'refused', saslCondition: 'not-authorized', sessionStarted: false });
  });
});

describe("every occupant presence carries <user sid rid type> with the occupant's customerData", () => {
  it("shows each occupant the other's <user> element, with one rid for the room", async () => {
    const roomJid = newRoomJid();
    const aliceId = newId('alice');
    const bobId = newId('bob');
    // Characters that must be escaped in XML text, to show the JSON arrives intact.
    const aliceCustomerData = { displayName: 'Alice <&> "A"', avatar: 'https://example.test/a.png?x=1&y=2' };
    const alice = await logInOrFail(aliceId, { type: 'client', customerData: aliceCustomerData });
    const bob = await logInOrFail(bobId);

    const aliceSelf = await joinRoom(alice, roomJid, aliceId);
    const aliceSeesBob = nextPresenceFrom(alice, `${roomJid}/${bobId}`);
    const bobSeesAlice = nextPresenceFrom(bob, `${roomJid}/${aliceId}`);
    // A client cannot pass off its own <user>: the server replaces it.
    const bobSelf = await joinRoom(bob, roomJid, bobId, {
      talkyUser: { sid: 'forged', type: 'admin', customerData: '{"displayName":"Mallory"}' },
    });

    const bobAsSeenByAlice = (await aliceSeesBob).talkyUser;
    const aliceAsSeenByBob = (await bobSeesAlice).talkyUser;
    expect(aliceAsSeenByBob).toMatchObject({ sid: aliceId, type: 'client' });
    expect(JSON.parse(aliceAsSeenByBob?.customerData ?? '')).toEqual(aliceCustomerData);
    expect(bobAsSeenByAlice).toMatchObject({ sid: bobId, type: 'guest', customerData: '{}' });
    expect(aliceAsSeenByBob?.rid).toMatch(UUID_PATTERN);
    expect(bobAsSeenByAlice?.rid).toBe(aliceAsSeenByBob?.rid);
    // The self-presence carries it too.
    expect(aliceSelf.talkyUser).toMatchObject({ sid: aliceId, rid: aliceAsSeenByBob?.rid, type: 'client' });
    expect(bobSelf.talkyUser).toEqual({ sid: bobId, rid: aliceAsSeenByBob?.rid, type: 'guest', customerData: '{}' });
  });

  it("carries the leaver's element on the leave presence when the leaver's connection ends", async () => {
    const roomJid = newRoomJid();
    const aliceId = newId('alice');
    const bobId = newId('bob');
    const bobCustomerData = { displayName: 'Bob' };
    const alice = await logInOrFail(aliceId);
    const bob = await logInOrFail(bobId, { type: 'client', customerData: bobCustomerData });
    await joinRoom(alice, roomJid, aliceId);
    const bobJoined = await joinRoom(bob, roomJid, bobId);

    const bobLeft = within(
      'leave presence of bob',
      new Promise<ReceivedMUCPresence>((resolve) => {
        alice.on('muc:unavailable', (presence) => {
          if (presence.from === `${roomJid}/${bobId}`) resolve(presence);
        });
      }),
    );
    // The server sends the leave presence after bob's session is gone.
    await disconnect(bob);
    expect((await bobLeft).talkyUser).toEqual({
      sid: bobId,
      rid: bobJoined.talkyUser?.rid,
      type: 'client',
      customerData: JSON.stringify(bobCustomerData),
    });
  });

  it('gives each room its own rid', async () => {
    const userId = newId('alice');
    const client = await logInOrFail(userId);
    const first = await joinRoom(client, newRoomJid(), userId);
    const second = await joinRoom(client, newRoomJid(), userId);
    expect(first.talkyUser?.rid).toMatch(UUID_PATTERN);
    expect(second.talkyUser?.rid).toMatch(UUID_PATTERN);
    expect(second.talkyUser?.rid).not.toBe(first.talkyUser?.rid);
  });
});

describe('only a join (a presence with the MUC <x/>) starts a room; another presence to a missing room gets item-not-found', () => {
  it('refuses a call-update presence to a room that does not exist, and starts no room', async () => {
    const roomJid = newRoomJid();
    const userId = newId('alice');
    const client = await logInOrFail(userId);
    const refused = within(
      'the error presence',
      new Promise<Presence>((resolve) => client.on('presence:error', (presence) => presence.from === `${roomJid}/${userId}` && resolve(presence))),
    );
    client.sendPresence({ to: `${roomJid}/${userId}` });
    expect((await refused).error?.condition).toBe('item-not-found');
    expect((await server.stats()).rooms[roomJid]).toBeUndefined();
  });
});

describe('stats() counts authenticated client sessions and room occupants', () => {
  it('reports two sessions and the two occupants of their room', async () => {
    const roomJid = newRoomJid();
    const aliceId = newId('alice');
    const bobId = newId('bob');
    const alice = await logInOrFail(aliceId);
    const bob = await logInOrFail(bobId);
    await joinRoom(alice, roomJid, aliceId);
    await joinRoom(bob, roomJid, bobId);

    const stats = await server.stats();
    expect(stats.clientSessions).toBe(2);
    expect(stats.rooms[roomJid]).toEqual({ occupants: 2 });
  });
});

describe(`a room holds at most maxOccupants (${MAX_OCCUPANTS}); a further joiner gets service-unavailable`, () => {
  it('refuses the third joiner until someone leaves', async () => {
    const roomJid = newRoomJid();
    const [aliceId, bobId, carolId] = [newId('alice'), newId('bob'), newId('carol')];
    const alice = await logInOrFail(aliceId);
    const bob = await logInOrFail(bobId);
    const carol = await logInOrFail(carolId);
    await joinRoom(alice, roomJid, aliceId);
    await joinRoom(bob, roomJid, bobId);

    const refusal = await joinRoom(carol, roomJid, carolId).then(
      () => undefined,
      (error: unknown) => error as Presence,
    );
    expect(refusal?.type).toBe('error');
    expect(refusal?.error?.condition).toBe('service-unavailable');
    expect((await server.stats()).rooms[roomJid]).toEqual({ occupants: 2 });

    await within('bob leaving', bob.leaveRoom(roomJid));
    await joinRoom(carol, roomJid, carolId);
    expect((await server.stats()).rooms[roomJid]).toEqual({ occupants: 2 });
  });
});

describe('a full room still answers banned (forbidden) and password required (not-authorized) first (SPEC §8)', () => {
  // Prosody's limit runs after its ban and password checks; ejabberd's (mod_parley.erl) lets a join the room will refuse anyway go on to them.
  it('tells a banned joiner "forbidden" and one without the password "not-authorized" even when the room is full (SPEC §8)', async () => {
    const roomJid = newRoomJid();
    const [aliceId, bobId, carolId, daveId] = [newId('alice'), newId('bob'), newId('carol'), newId('dave')];
    const [alice, bob, carol, dave] = await Promise.all([aliceId, bobId, carolId, daveId].map((id) => logInOrFail(id)));
    await joinRoom(alice!, roomJid, aliceId);
    await joinRoom(bob!, roomJid, bobId);
    await within('banning carol', alice!.setRoomAffiliation(roomJid, `${carolId}@${DOMAIN}`, 'outcast'));
    await within('locking', alice!.configureRoom(roomJid, lockForm('sesame')));
    expect((await server.stats()).rooms[roomJid]).toEqual({ occupants: 2 });

    const refusal = (client: Agent, id: string, password?: string): Promise<string | undefined> =>
      joinRoom(client, roomJid, id, password ? { muc: { type: 'join', password } } : {}).then(
        () => 'joined',
        (error: unknown) => (error as Presence).error?.condition,
      );
    expect(await refusal(carol!, carolId)).toBe('forbidden');
    expect(await refusal(carol!, carolId, 'sesame')).toBe('forbidden');
    expect(await refusal(dave!, daveId)).toBe('not-authorized');
    expect(await refusal(dave!, daveId, 'wrong')).toBe('not-authorized');
    // With the password, nothing but the limit stands in the way.
    expect(await refusal(dave!, daveId, 'sesame')).toBe('service-unavailable');
    expect((await server.stats()).rooms[roomJid]).toEqual({ occupants: 2 });
  });
});

describe('real JIDs are visible to moderators only (whois moderators)', () => {
  it("shows the first joiner (owner, moderator) the other's real JID, and not the other way round", async () => {
    const roomJid = newRoomJid();
    const aliceId = newId('alice');
    const bobId = newId('bob');
    const alice = await logInOrFail(aliceId);
    const bob = await logInOrFail(bobId);

    const aliceSelf = await joinRoom(alice, roomJid, aliceId);
    expect(aliceSelf.muc).toMatchObject({ affiliation: 'owner', role: 'moderator' });
    const aliceSeesBob = nextPresenceFrom(alice, `${roomJid}/${bobId}`);
    const bobSeesAlice = nextPresenceFrom(bob, `${roomJid}/${aliceId}`);
    await joinRoom(bob, roomJid, bobId);

    expect((await aliceSeesBob).muc.jid).toBe(`${bobId}@${DOMAIN}/${bobId}`);
    const aliceAsSeenByBob = (await bobSeesAlice).muc;
    expect(aliceAsSeenByBob.role).toBe('moderator');
    expect(aliceAsSeenByBob.jid).toBeUndefined();
  });
});

describe('lifecycle: stop() frees the port for a new server, kill() drops clients at once', () => {
  // These tests start servers of their own: stopping and killing is what they are about.
  const ownServers: XmppServer[] = [];
  async function startOwnServer(httpPort?: number): Promise<XmppServer> {
    const started = await startXmppServer({ ...serverOptions, httpPort });
    ownServers.push(started);
    return started;
  }

  afterAll(async () => {
    await Promise.all(ownServers.map((own) => own.stop()));
  });

  it('starts again on the same port after stop(), and stop() can be repeated', async () => {
    const first = await startOwnServer();
    const userId = newId('alice');
    await logInOrFail(userId, {}, first);
    await first.stop();
    await first.stop();
    await expect(first.stats()).rejects.toThrow();

    const second = await startOwnServer(first.httpPort);
    expect(second.websocketUrl).toBe(first.websocketUrl);
    await logInOrFail(userId, {}, second);
    expect((await second.stats()).clientSessions).toBe(1);
  });

  it('disconnects a connected client on kill(), and starts again on the same port', async () => {
    const doomed = await startOwnServer();
    const userId = newId('alice');
    const client = await logInOrFail(userId, {}, doomed);
    const disconnected = within('disconnect after kill', new Promise<void>((resolve) => client.once('disconnected', () => resolve())));
    await doomed.kill();
    await disconnected;

    const successor = await startOwnServer(doomed.httpPort);
    await logInOrFail(userId, {}, successor);
    expect((await successor.stats()).clientSessions).toBe(1);
  });
});

// Prosody keeps the rooms in SQLite, ejabberd in Mnesia, each in the data folder.
describe('Rooms persist in the data folder, their owner, lock and bans surviving a restart of the XMPP server', () => {
  const ownServers: XmppServer[] = [];
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'parley-xmpp-data-'));
  });

  afterAll(async () => {
    await Promise.all(ownServers.map((own) => own.stop()));
    await rm(dataDir, { recursive: true, force: true });
  });

  async function startOwnServer(): Promise<XmppServer> {
    const started = await startXmppServer({ ...serverOptions, dataDir });
    ownServers.push(started);
    return started;
  }

  async function refusalOf(join: Promise<ReceivedMUCPresence>): Promise<string | undefined> {
    return join.then(
      () => undefined,
      (error: unknown) => (error as Presence).error?.condition,
    );
  }

  it('keeps the first joiner as owner, the password and the ban of a kicked user', async () => {
    const roomJid = newRoomJid();
    const [aliceId, bobId, carolId] = [newId('alice'), newId('bob'), newId('carol')];
    const before = await startOwnServer();
    const alice = await logInOrFail(aliceId, {}, before);
    const bob = await logInOrFail(bobId, {}, before);
    await joinRoom(alice, roomJid, aliceId);
    await joinRoom(bob, roomJid, bobId);
    await within('locking', alice.configureRoom(roomJid, lockForm('sesame')));
    await within('kicking bob', alice.setRoomAffiliation(roomJid, `${bobId}@${DOMAIN}`, 'outcast'));
    await before.stop();

    const after = await startOwnServer();
    const aliceAgain = await logInOrFail(aliceId, {}, after);
    const aliceSelf = await joinRoom(aliceAgain, roomJid, aliceId, { muc: { type: 'join', password: 'sesame' } });
    expect(aliceSelf.muc).toMatchObject({ affiliation: 'owner', role: 'moderator' });
    const carol = await logInOrFail(carolId, {}, after);
    expect(await refusalOf(joinRoom(carol, roomJid, carolId))).toBe('not-authorized');
    const bobAgain = await logInOrFail(bobId, {}, after);
    expect(await refusalOf(joinRoom(bobAgain, roomJid, bobId, { muc: { type: 'join', password: 'sesame' } }))).toBe('forbidden');
    // Two server starts: a bound for a loaded machine, not a speed claim.
  }, 60_000);
});
