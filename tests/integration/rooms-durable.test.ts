// Rooms remember: Prosody keeps rooms, affiliations and configuration in SQLite in the data folder,
// ejabberd in Mnesia there (each change on disk before it is answered: mod_muc_parley.erl), so a
// room's owner, its lock and its bans survive the last person leaving, reconnects and restarts,
// until the room has been empty for PARLEY_ROOM_IDLE_EXPIRY_SECONDS (rooms-expiry.test.ts). Seen through plain XMPP clients
// (as any client, the 1.30.3 one included) and through the app's own sessions.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Agent, Stanzas } from 'stanza';
import type { ReceivedMUCPresence } from 'stanza/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningParley } from '../../server/Parley';
import type { ProviderConfig } from '../../src/protocol/config';
import type { Room } from '../../src/protocol/entities';
import { MemoryIdentityStorage } from '../../src/shared-worker/identity/IdentityStorage';
import { lockForm } from '../../src/shared-worker/rooms/roomLockForm';
import { providerConfig } from '../support/parley';
import { connected, joinedBy, peerNamed, useSessions, waitFor, WAIT_MS, type TestSession } from '../support/sessions';
import { startTestParley, temporaryDataDir } from '../support/testParley';
import { clientFor, login, usePlainClients, withTimeout } from '../support/xmppClient';

/**
 * One Parley per test, with a data folder that outlives its restarts: `restart` stops the XMPP
 * server and the gateway and starts both again on the same port with the same folder (and so the
 * same token secret, kept there).
 */
function useRestartableParley(): { server: () => RunningParley; restart: () => Promise<void> } {
  let running: RunningParley | undefined;
  let dataDir: string | undefined;
  const stop = async (): Promise<void> => {
    // The XMPP server first: its clients' websockets close, which the gateway's stop waits for.
    await running?.xmpp.stop();
    await running?.stop();
  };
  beforeEach(async () => {
    dataDir = await temporaryDataDir();
    running = await startTestParley({ dataDir, relayWorkers: 0 });
  });
  afterEach(async () => {
    await stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return {
    server: () => running!,
    async restart() {
      const port = Number(new URL(running!.url).port);
      await stop();
      running = await startTestParley({ dataDir, relayWorkers: 0, port });
    },
  };
}

// Registered first, so its teardown runs after the clients' and sessions' (hooks unwind as a stack).
const parley = useRestartableParley();
const track = usePlainClients();
const openSession = useSessions();

/** One browser: the guest identity credential it keeps between config requests. */
interface Browser {
  identity?: string;
}

interface LoggedIn {
  client: Agent;
  config: ProviderConfig;
  bareJid: string;
}

/** A config request as the browser makes it (with its stored identity, then keeping the renewed one), and a plain client logged in with it. */
async function logIn(browser: Browser): Promise<LoggedIn> {
  const config = await providerConfig(parley.server(), browser.identity ? { identity: browser.identity } : {});
  browser.identity = config.identity;
  const client = track(clientFor(config));
  await login(client);
  return { client, config, bareJid: config.userId };
}

function newRoomJid(): string {
  return `room-${randomUUID().slice(0, 8)}@${parley.server().settings.mucDomain}`;
}

function join(who: LoggedIn, room: string, password?: string): Promise<ReceivedMUCPresence> {
  return withTimeout(who.client.joinRoom(room, who.config.id, password ? { muc: { type: 'join', password } } : {}), WAIT_MS, `joining ${room}`);
}

/** The error condition the room answers a join with, or 'joined'. */
async function joinOutcome(who: LoggedIn, room: string, password?: string): Promise<string> {
  return join(who, room, password).then(
    () => 'joined',
    (error: { error?: { condition?: string } }) => error.error?.condition ?? String(error),
  );
}

async function leave(who: LoggedIn, room: string): Promise<void> {
  await withTimeout(who.client.leaveRoom(room, who.config.id), WAIT_MS, `leaving ${room}`);
}

/** The same identity logged in again on a new connection, the old one gone: a lost connection, as the room sees it. */
async function reconnect(who: LoggedIn): Promise<LoggedIn> {
  await who.client.disconnect();
  const again = { ...who, client: track(clientFor(who.config)) };
  await login(again.client);
  return again;
}

/** The room config form that would make a room temporary: a room no longer stored. */
const TEMPORARY_ROOM: Stanzas.DataForm = {
  type: 'submit',
  fields: [
    { name: 'FORM_TYPE', type: 'hidden', value: 'http://jabber.org/protocol/muc#roomconfig' },
    { name: 'muc#roomconfig_persistentroom', type: 'boolean', value: false },
  ],
};

// Prosody ignores the persistent field of an owner's form (muc_room_allow_persistent = false);
// ejabberd refuses the form (access_persistent: none). Either way the room stays stored.
describe('Every room is stored: no owner can make one temporary, which would lose its owner, lock and bans once empty, on Prosody and ejabberd', () => {
  it('keeps the room, and its owner, after its owner asked for it to be temporary and everyone left', async () => {
    const room = newRoomJid();
    const alice = await logIn({});
    expect((await join(alice, room)).muc).toMatchObject({ affiliation: 'owner' });
    await withTimeout(alice.client.configureRoom(room, TEMPORARY_ROOM), WAIT_MS, 'asking for a temporary room').catch(() => undefined);
    await leave(alice, room);
    // A temporary room would be gone now, and the next joiner would make it anew as its owner.
    expect((await join(await logIn({}), room)).muc?.affiliation).not.toBe('owner');
  });
});

describe('a ban holds against the banned identity: after reconnecting, reloading and a server restart', () => {
  it('keeps the banned user out of the room while others still get in', async () => {
    const [aliceBrowser, bobBrowser] = [{}, {}];
    const room = newRoomJid();
    const alice = await logIn(aliceBrowser);
    expect((await join(alice, room)).muc).toMatchObject({ affiliation: 'owner' });
    const bob = await logIn(bobBrowser);
    await join(bob, room);
    await alice.client.ban(room, bob.bareJid, 'kicked');

    // Reconnect: the same config's credential again.
    expect(await joinOutcome(await reconnect(bob), room)).toBe('forbidden');

    // Reload: a new config request with the identity the browser kept: the same user, a new resource.
    const reloaded = await logIn(bobBrowser);
    expect(reloaded.bareJid).toBe(bob.bareJid);
    expect(reloaded.config.id).not.toBe(bob.config.id);
    expect(await joinOutcome(reloaded, room)).toBe('forbidden');

    await parley.restart();
    const afterRestart = await logIn(bobBrowser);
    expect(afterRestart.bareJid).toBe(bob.bareJid);
    expect(await joinOutcome(afterRestart, room)).toBe('forbidden');
    // The room is not simply closed: a new browser gets in, and the owner is still owner.
    expect((await join(await logIn({}), room)).muc).toMatchObject({ affiliation: 'none' });
    expect((await join(await logIn(aliceBrowser), room)).muc).toMatchObject({ affiliation: 'owner', role: 'moderator' });
  });

  it('shows a kicked person who reloads the page (a new session, the same stored identity) that they are banned', async () => {
    const alice = openSession({ server: parley.server(), displayName: 'Alice' });
    const bobBrowser = new MemoryIdentityStorage();
    const bob = openSession({ server: parley.server(), displayName: 'Bob', identityStorage: bobBrowser });
    const name = `Room ${randomUUID().slice(0, 8)}`;
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    const bobPeer = await waitFor(alice, 'Bob in the room', (state) => Object.values(state.peers).find((peer) => peer.displayName === 'Bob'));
    await alice.rooms.kickPeer(bobPeer.address);
    await roomState(bob, bobRoom.id, 'banned');
    bob.session.disconnect();

    const reloadedBob = openSession({ server: parley.server(), displayName: 'Bob', identityStorage: bobBrowser });
    await connected(reloadedBob);
    expect(reloadedBob.session.config?.userId).toBe(bob.session.config?.userId);
    const again = await roomState(reloadedBob, await reloadedBob.rooms.joinRoom(name), 'banned');
    expect(again).toMatchObject({ banned: true, joined: false, address: room.address });
  });
});

describe('rooms remember their owner, lock and bans after the last person leaves', () => {
  it('asks a newcomer for the password, keeps the banned out, and gives the owner back the room', async () => {
    const aliceBrowser = {};
    const room = newRoomJid();
    const alice = await logIn(aliceBrowser);
    await join(alice, room);
    await alice.client.configureRoom(room, lockForm('hush'));
    const bob = await logIn({});
    await alice.client.ban(room, bob.bareJid, 'kicked');
    await leave(alice, room);
    expect((await parley.server().xmpp.stats()).rooms[room]).toEqual({ occupants: 0 });

    const carol = await logIn({});
    expect(await joinOutcome(carol, room)).toBe('not-authorized');
    expect(await joinOutcome(bob, room, 'hush')).toBe('forbidden');
    expect((await join(carol, room, 'hush')).muc).toMatchObject({ affiliation: 'none', role: 'participant' });
    expect((await join(await logIn(aliceBrowser), room, 'hush')).muc).toMatchObject({ affiliation: 'owner', role: 'moderator' });
  });
});

describe('a lock and a ban are stored once the room has answered them: they hold when the XMPP server crashes right after', () => {
  it('asks a newcomer for the password and keeps the banned out, with no wait between the answers and the crash', async () => {
    const aliceBrowser = {};
    const room = newRoomJid();
    const alice = await logIn(aliceBrowser);
    const bob = await logIn({});
    await join(alice, room);
    await withTimeout(alice.client.configureRoom(room, lockForm('hush')), WAIT_MS, 'locking');
    await withTimeout(alice.client.ban(room, bob.bareJid, 'kicked'), WAIT_MS, 'banning');

    await parley.server().restartXmpp();
    expect(await joinOutcome(await logIn({}), room)).toBe('not-authorized');
    expect(await joinOutcome(await logIn({}), room, 'hush')).toBe('joined');
    const bobAgain = { ...bob, client: track(clientFor(bob.config)) };
    await login(bobAgain.client);
    expect(await joinOutcome(bobAgain, room, 'hush')).toBe('forbidden');
    expect((await join(await logIn(aliceBrowser), room, 'hush')).muc).toMatchObject({ affiliation: 'owner', role: 'moderator' });
  });
});

function roomState(who: TestSession, roomId: string, state: Room['roomState']): Promise<Room> {
  return waitFor(who, `room ${roomId} ${state}`, (current) => (current.rooms[roomId]?.roomState === state ? current.rooms[roomId] : undefined));
}

/** The room once the session has rejoined it after the restart (a reconnect takes the spec's 1–3 s). */
function rejoined(who: TestSession, roomId: string, check: (room: Room) => boolean): Promise<Room> {
  return waitFor(who, `room ${roomId} rejoined`, (state) => {
    const room = state.rooms[roomId];
    return room?.roomState === 'joined' && check(room) ? room : undefined;
  });
}

describe('the owner stays owner, and the lock still locks, after the XMPP server and the gateway restart (SPEC §4 lock check after join)', () => {
  const restarts: Array<[string, () => Promise<void>]> = [
    ['the XMPP server crashes and starts again (restartXmpp)', () => parley.server().restartXmpp()],
    ['the gateway and the XMPP server stop and start again with the same data folder', () => parley.restart()],
  ];
  it.each(restarts)('after %s', async (_restart, restart) => {
    const alice = openSession({ server: parley.server(), displayName: 'Alice' });
    const bob = openSession({ server: parley.server(), displayName: 'Bob' });
    const name = `Room ${randomUUID().slice(0, 8)}`;
    const room = await joinedBy(alice, name);
    await alice.rooms.lockRoom(room.address, 'hush');
    const bobRoom = await joinedBy(bob, name, { password: 'hush' });

    await restart();
    // Both come back on their own, in whatever order; neither the room nor its owner changed.
    const aliceAgain = await rejoined(alice, room.id, (current) => current.selfAffiliation === 'owner' && current.password === 'hush');
    expect(aliceAgain).toMatchObject({ passwordRequired: true, selfRole: 'moderator', rid: room.rid });
    const bobAgain = await rejoined(bob, bobRoom.id, (current) => current.passwordRequired);
    expect(bobAgain.selfAffiliation).toBe('none');
    // No one from before the restart lingers in the room (Prosody stores the occupants when it stops).
    const inRoom = (): string[] => Object.values(alice.session.store.state.peers).filter((peer) => peer.roomAddress === room.address).map((peer) => peer.displayName);
    await waitFor(alice, 'Bob back in the room', () => inRoom().includes('Bob'));
    expect(inRoom().sort()).toEqual(['Alice', 'Bob']);

    const carol = openSession({ server: parley.server(), displayName: 'Carol' });
    await connected(carol);
    await roomState(carol, await carol.rooms.joinRoom(name), 'password-required');
  }, 3 * WAIT_MS);
});

describe('a new room is stored at once: its creator owns it even when the XMPP server crashes before anything else happens in it', () => {
  it('makes the first joiner after the crash a plain occupant and gives the creator the room back', async () => {
    const aliceBrowser = {};
    const room = newRoomJid();
    expect((await join(await logIn(aliceBrowser), room)).muc).toMatchObject({ affiliation: 'owner' });

    await parley.server().restartXmpp();
    expect((await join(await logIn({}), room)).muc).toMatchObject({ affiliation: 'none', role: 'participant' });
    expect((await join(await logIn(aliceBrowser), room)).muc).toMatchObject({ affiliation: 'owner', role: 'moderator' });
  });
});

describe('locking a room keeps its people: who was in it when it was locked comes back without the password, after a lost connection and a server restart', () => {
  // Prosody: mod_muc_parley_lock_admitted.lua; ejabberd: mod_parley_lock_admitted.erl (the room's
  // muc_filter_presence hook, which runs before mod_muc_room's password check).
  it('rejoins Bob, who never learnt the password, while a newcomer is asked for it and the kicked stay out', async () => {
    const alice = openSession({ server: parley.server(), displayName: 'Alice' });
    const bob = openSession({ server: parley.server(), displayName: 'Bob' });
    const daveBrowser = new MemoryIdentityStorage();
    const dave = openSession({ server: parley.server(), displayName: 'Dave', identityStorage: daveBrowser });
    const erin = openSession({ server: parley.server(), displayName: 'Erin' });
    const name = `Room ${randomUUID().slice(0, 8)}`;
    const room = await joinedBy(alice, name);
    const bobRoom = await joinedBy(bob, name);
    const daveRoom = await joinedBy(dave, name);
    const erinRoom = await joinedBy(erin, name);
    // Erin's connection is gone when the room is locked: she was not in it then.
    await peerNamed(alice, room.address, 'Erin');
    erin.session.disconnect();
    await waitFor(alice, 'Erin gone from the room', (state) => !Object.values(state.peers).some((peer) => peer.roomAddress === room.address && peer.displayName === 'Erin'));
    await alice.rooms.lockRoom(room.address, 'hush');
    // Bob's lock check learns only that a password is required now.
    const locked = await waitFor(bob, 'Bob told the room is locked', (state) => state.rooms[bobRoom.id]?.passwordRequired && state.rooms[bobRoom.id]);
    expect(locked.password).toBeUndefined();
    await alice.rooms.kickPeer((await peerNamed(alice, room.address, 'Dave')).address);
    await roomState(dave, daveRoom.id, 'banned');

    const drops: Array<[string, () => Promise<void>]> = [
      ['a lost connection', async () => {
        bob.session.disconnect();
        await bob.session.connect();
      }],
      ['the XMPP server restarting', () => parley.server().restartXmpp()],
    ];
    for (const [what, drop] of drops) {
      await drop();
      const back = await rejoined(bob, bobRoom.id, (current) => current.passwordRequired);
      expect(back, `Bob back after ${what}`).toMatchObject({ password: undefined, providedPassword: undefined });
      await peerNamed(alice, room.address, 'Bob', (peer) => peer.joinedCall);
    }

    // Erin comes back: had joined (joinedAt kept), refused now, never given a password: the page says
    // the room was locked while she was away (RoomPasswordPrompt).
    await erin.session.connect();
    expect(await roomState(erin, erinRoom.id, 'password-required')).toMatchObject({ providedPassword: undefined, joinedAt: erinRoom.joinedAt });

    const carol = openSession({ server: parley.server(), displayName: 'Carol' });
    await connected(carol);
    await roomState(carol, await carol.rooms.joinRoom(name), 'password-required');
    // Dave was in the room when it was locked, but the kick banned him: a reload finds him banned still.
    dave.session.disconnect();
    const reloadedDave = openSession({ server: parley.server(), displayName: 'Dave', identityStorage: daveBrowser });
    await connected(reloadedDave);
    await roomState(reloadedDave, await reloadedDave.rooms.joinRoom(name), 'banned');
  }, 4 * WAIT_MS);

  it('admits those in the room at the lock or who came with the password; a new password keeps only those in the room; a kick, a ban or an unlock ends it', async () => {
    const aliceBrowser = {};
    const room = newRoomJid();
    const alice = await logIn(aliceBrowser);
    const bob = await logIn({});
    const carol = await logIn({});
    await join(alice, room);
    await join(bob, room);
    await withTimeout(alice.client.configureRoom(room, lockForm('hush')), WAIT_MS, 'locking');

    // In the room when it was locked: back without the password, as often as need be.
    const bobBack = await reconnect(bob);
    expect(await joinOutcome(bobBack, room)).toBe('joined');
    // Came after the lock with the password: back without it too.
    expect(await joinOutcome(carol, room)).toBe('not-authorized');
    expect(await joinOutcome(carol, room, 'hush')).toBe('joined');
    await leave(carol, room);
    expect(await joinOutcome(carol, room)).toBe('joined');
    // Kicked by a moderator (not banned): she must ask for the password again, as anyone.
    await withTimeout(alice.client.kick(room, carol.config.id, 'out'), WAIT_MS, 'kicking');
    expect(await joinOutcome(carol, room)).toBe('not-authorized');
    expect(await joinOutcome(carol, room, 'hush')).toBe('joined');
    await leave(carol, room);

    // A new password: Bob is in the room and stays admitted; Carol had left and must ask for it.
    await withTimeout(alice.client.configureRoom(room, lockForm('hush2')), WAIT_MS, 'changing the password');
    const bobStill = await reconnect(bobBack);
    expect(await joinOutcome(bobStill, room)).toBe('joined');
    expect(await joinOutcome(carol, room)).toBe('not-authorized');
    expect(await joinOutcome(carol, room, 'hush')).toBe('not-authorized');

    // Unlocked, then locked again while only Alice is in: Bob, who had left, is not admitted any more.
    await leave(bobStill, room);
    await withTimeout(alice.client.configureRoom(room, lockForm('')), WAIT_MS, 'unlocking');
    await withTimeout(alice.client.configureRoom(room, lockForm('hush3')), WAIT_MS, 'locking again');
    expect(await joinOutcome(bobStill, room)).toBe('not-authorized');
    expect(await joinOutcome(bobStill, room, 'hush3')).toBe('joined');

    // Banned: never let in, with or without the password, nor after the ban is lifted.
    await withTimeout(alice.client.ban(room, bob.bareJid, 'kicked'), WAIT_MS, 'banning');
    const bobBanned = await reconnect(bobStill);
    expect(await joinOutcome(bobBanned, room)).toBe('forbidden');
    await withTimeout(alice.client.setRoomAffiliation(room, bob.bareJid, 'none'), WAIT_MS, 'lifting the ban');
    expect(await joinOutcome(bobBanned, room)).toBe('not-authorized');

    // The list is kept with the room: after a restart, Alice (in the room at the lock) needs no password either.
    await parley.server().restartXmpp();
    expect((await join(await logIn(aliceBrowser), room)).muc).toMatchObject({ affiliation: 'owner' });
  }, 4 * WAIT_MS);
});
