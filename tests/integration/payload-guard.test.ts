// The server protects older clients (issue 12, item 4): payloads that other occupants' clients parse
// — JSON commands, Jingle, chat states, real-time text — are validated by Prosody
// (mod_muc_parley_payload_guard) before the room relays them, and before a client's stanza sent
// straight to another user reaches that user. A malformed one is bounced to its sender with
// modify/bad-request and a text saying what was wrong, never reaches the other occupants, and is
// counted in the XMPP server's stats. The receivers here are StanzaJS exactly as others ship it (no
// Parley definitions): its stream parser throws on a <json> whose text is not JSON, and the client
// then stops processing the room.
import { randomUUID } from 'node:crypto';
import { JXT, Namespaces, type Agent, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/protocol/config';
import { LIMITS } from '../../src/protocol/constants';
import { providerConfig, useParley } from '../support/parley';
import { WAIT_MS } from '../support/sessions';
import { clientFor, login, usePlainClients, withTimeout } from '../support/xmppClient';

const parley = useParley();
const track = usePlainClients();

/** A plain client, and the address the others write to it at: its occupant JID in a room, else its full JID. */
interface Person {
  client: Agent;
  address: string;
}

/** Raw views of the payloads, so that a sender can put any text or value on the wire (as any client can). */
interface RawMessage extends Stanzas.Message {
  rawPayload?: { type: string; json: string };
  /** `<shouting/>` in the chat states namespace: not a state XEP-0085 knows. */
  shouting?: Record<string, never>;
  rawRtt?: { event?: string; seq?: string; insert?: { position?: string; text: string } };
}

function teachRawPayloads(client: Agent): void {
  client.stanzas.define([
    {
      element: 'payload',
      namespace: Namespaces.NS_JSON_MESSAGE_0,
      path: 'message.rawPayload',
      fields: { type: JXT.attribute('datatype'), json: JXT.childText(Namespaces.NS_JSON_0, 'json') },
    },
    { element: 'shouting', namespace: Namespaces.NS_CHAT_STATES, path: 'message.shouting', fields: {} },
    { element: 'rtt', namespace: Namespaces.NS_RTT_0, path: 'message.rawRtt', fields: { event: JXT.attribute('event'), seq: JXT.attribute('seq') } },
    { element: 't', namespace: Namespaces.NS_RTT_0, path: 'message.rawRtt.insert', fields: { position: JXT.attribute('p'), text: JXT.text() } },
  ]);
}

/** Logs in a plain client as a user of its own; `stock` means StanzaJS without Parley's definitions (the receivers under test). */
async function loggedIn(stock: boolean): Promise<{ client: Agent; config: ProviderConfig }> {
  const config = await providerConfig(parley());
  const client = track(clientFor(config, config.credential, !stock));
  if (!stock) teachRawPayloads(client);
  await login(client);
  return { client, config };
}

/** Logs in a plain client (`stock` as for loggedIn) and joins it to the room as `nick`. */
async function occupantIn(roomAddress: string, nick: string, stock: boolean): Promise<Person> {
  const { client, config } = await loggedIn(stock);
  // The subject is the last stanza of a join (XEP-0045 §7.2.15): a message without a body, which
  // would otherwise reach a receiver's record after the join resolved on its own presence.
  const subject = nextEvent<{ room: string }>(client, 'muc:topic', `${nick}'s room subject`, (topic) => topic.room === roomAddress);
  await withTimeout(client.joinRoom(roomAddress, config.id, { nick }), WAIT_MS, `${nick} joining`);
  await subject;
  return { client, address: `${roomAddress}/${config.id}` };
}

function nextEvent<T>(client: Agent, event: 'message' | 'message:error' | 'muc:available' | 'muc:topic', what: string, match: (value: T) => boolean): Promise<T> {
  return withTimeout(
    new Promise<T>((resolve) => {
      const listener = (value: T): void => {
        if (!match(value)) return;
        client.off(event, listener as never);
        resolve(value);
      };
      client.on(event, listener as never);
    }),
    WAIT_MS,
    what,
  );
}

/** Everything a receiver gets, to show afterwards that nothing malformed arrived. */
function recordMessages(client: Agent): Stanzas.ReceivedMessage[] {
  const received: Stanzas.ReceivedMessage[] = [];
  client.on('message', (message) => received.push(message));
  return received;
}

async function room(): Promise<{ roomAddress: string; mallory: Person; bob: Person }> {
  const roomAddress = `guard-${randomUUID().slice(0, 8)}@${parley().settings.mucDomain}`;
  const mallory = await occupantIn(roomAddress, 'Mallory', false);
  const bob = await occupantIn(roomAddress, 'Bob', true);
  return { roomAddress, mallory, bob };
}

/** Sends the message and resolves with the error the server bounces back to its sender. */
async function bounced(sender: Person, message: RawMessage): Promise<Stanzas.StanzaError> {
  const id = randomUUID();
  const error = nextEvent<Stanzas.Message>(sender.client, 'message:error', 'the bounce', (reply) => reply.id === id);
  sender.client.sendMessage({ ...message, id });
  return (await error).error!;
}

/** An ordering barrier: the room relays one occupant's stanzas in order, so once this body arrives, whatever was sent before has too. */
async function bodyArrives(from: Person, to: Person, roomAddress: string, body: string): Promise<void> {
  const arrived = nextEvent<Stanzas.ReceivedMessage>(to.client, 'message', body, (message) => message.body === body);
  from.client.sendMessage({ to: roomAddress, type: 'groupchat', body });
  await arrived;
}

async function rejectedPayloads(): Promise<number> {
  const { rejectedPayloads: count } = await parley().xmpp.stats();
  if (count === undefined) throw new Error('this XMPP server reports no payload guard count');
  return count;
}

describe('A JSON payload that is not JSON is bounced to its sender and never reaches the other occupants', () => {
  it('bounces a groupchat with modify/bad-request saying why; a stock StanzaJS occupant keeps seeing new people and messages', async () => {
    const { roomAddress, mallory, bob } = await room();
    const seenByBob = recordMessages(bob.client);
    const before = await rejectedPayloads();

    const error = await bounced(mallory, { to: roomAddress, type: 'groupchat', rawPayload: { type: 'evil', json: '{not json' } });
    expect(error).toMatchObject({ type: 'modify', condition: 'bad-request', text: 'a JSON payload is not valid JSON: an object key is not a string' });
    expect(await rejectedPayloads()).toBe(before + 1);

    await bodyArrives(mallory, bob, roomAddress, 'still there?');
    const carolSeen = nextEvent<Stanzas.Presence>(bob.client, 'muc:available', "Carol's arrival", (presence) => presence.nick === 'Carol');
    const carol = await occupantIn(roomAddress, 'Carol', true);
    await carolSeen;
    await bodyArrives(carol, bob, roomAddress, 'hello from Carol');
    expect(seenByBob.filter((message) => message.jsonPayloads !== undefined || message.json !== undefined)).toEqual([]);
  });

  it('bounces a private message to an occupant the same way', async () => {
    const { roomAddress, mallory, bob } = await room();
    const seenByBob = recordMessages(bob.client);
    const error = await bounced(mallory, { to: bob.address, type: 'normal', rawPayload: { type: 'evil', json: '[1,]' } });
    expect(error).toMatchObject({ type: 'modify', condition: 'bad-request', text: 'a JSON payload is not valid JSON: a value is not valid JSON' });
    await bodyArrives(mallory, bob, roomAddress, 'after the private one');
    expect(seenByBob.filter((message) => message.type === 'normal')).toEqual([]);
  });

  it('bounces a payload over the size bound, and one without a datatype, and relays well-formed commands unchanged', async () => {
    const { roomAddress, mallory, bob } = await room();
    const tooBig = await bounced(mallory, { to: roomAddress, type: 'groupchat', rawPayload: { type: 'big', json: JSON.stringify('x'.repeat(LIMITS.jsonCommandBytes)) } });
    expect(tooBig.text).toBe(`a JSON payload is larger than ${LIMITS.jsonCommandBytes} bytes`);
    const untyped = await bounced(mallory, { to: roomAddress, type: 'groupchat', rawPayload: { type: '', json: '{}' } });
    expect(untyped.text).toBe(`a JSON payload needs a datatype of 1 to ${LIMITS.jsonCommandTypeLength} characters`);

    const data = { text: 'é "quoted" \\ ☃', list: [1, -2.5e3, true, null], nested: { a: [] } };
    const command = nextEvent<Stanzas.ReceivedMessage>(bob.client, 'message', 'the command', (message) => message.jsonPayloads !== undefined);
    mallory.client.sendMessage({ to: roomAddress, type: 'groupchat', jsonPayloads: [{ type: 'ok', data }] });
    expect((await command).jsonPayloads).toEqual([{ type: 'ok', data }]);
  });
});

/** Writes a stanza as it is on the sender's stream: one no StanzaJS definition would write, as any client can. */
async function bouncedXml(sender: Person, stanza: (id: string) => string): Promise<Stanzas.StanzaError> {
  const id = randomUUID();
  const error = nextEvent<Stanzas.Message>(sender.client, 'message:error', 'the bounce', (reply) => reply.id === id);
  (sender.client.transport as unknown as { write(xml: string): void }).write(stanza(id));
  return (await error).error!;
}

const groupchatXml = (to: string, id: string, inside: string): string => `<message xmlns='jabber:client' to='${to}' type='groupchat' id='${id}'>${inside}</message>`;
const forwardedJson = (json: string): string =>
  `<forwarded xmlns='urn:xmpp:forward:0'><message xmlns='jabber:client' type='chat' to='someone@parley.localhost'><json xmlns='urn:xmpp:json:0'>${json}</json></message></forwarded>`;
const pubsubItemJson = (json: string): string =>
  `<event xmlns='http://jabber.org/protocol/pubsub#event'><items node='n'><item id='1'><json xmlns='urn:xmpp:json:0'>${json}</json></item></items></event>`;

describe('A JSON payload nested deeper (a forwarded message, a pubsub item) that is not JSON is bounced too', () => {
  it('bounces not-JSON inside <forwarded><message> and inside <event><items><item>, and a stanza nested past the walk’s bound; relays a well-formed nested one', async () => {
    const { roomAddress, mallory, bob } = await room();
    const seenByBob = recordMessages(bob.client);
    const before = await rejectedPayloads();

    const forwarded = await bouncedXml(mallory, (id) => groupchatXml(roomAddress, id, forwardedJson('{not json')));
    expect(forwarded).toMatchObject({ type: 'modify', condition: 'bad-request', text: 'a JSON payload is not valid JSON: an object key is not a string' });
    const item = await bouncedXml(mallory, (id) => groupchatXml(roomAddress, id, pubsubItemJson('[1,]')));
    expect(item).toMatchObject({ condition: 'bad-request', text: 'a JSON payload is not valid JSON: a value is not valid JSON' });
    const deep = await bouncedXml(mallory, (id) => groupchatXml(roomAddress, id, `${"<a xmlns='urn:example:deep'>".repeat(40)}${'</a>'.repeat(40)}`));
    expect(deep.text).toBe('a message nests elements more than 32 deep');
    expect(await rejectedPayloads()).toBe(before + 3);

    (mallory.client.transport as unknown as { write(xml: string): void }).write(groupchatXml(roomAddress, randomUUID(), `<body>nested</body>${forwardedJson('{"ok":[1,2]}')}`));
    await nextEvent<Stanzas.ReceivedMessage>(bob.client, 'message', 'the well-formed nested payload', (message) => message.body === 'nested');
    await bodyArrives(mallory, bob, roomAddress, 'still there?');
    expect(seenByBob.map((message) => message.body)).toEqual(['nested', 'still there?']);
  });
});

describe('A Jingle request that is not XEP-0166 is bounced to its sender and never reaches the occupant', () => {
  it('bounces an unknown action with bad-request; a well-formed request reaches the occupant, who answers it', async () => {
    const { mallory, bob } = await room();
    const seenByBob: Stanzas.IQ[] = [];
    bob.client.on('iq:set:jingle', (iq) => seenByBob.push(iq));
    const before = await rejectedPayloads();

    const refused = mallory.client.sendIQ({ to: bob.address, type: 'set', jingle: { action: 'take-over' as never, sid: 'guard-1' } });
    await expect(refused).rejects.toMatchObject({ error: { type: 'modify', condition: 'bad-request', text: 'a Jingle request has no known action' } });
    expect(await rejectedPayloads()).toBe(before + 1);

    // Bob's own Jingle manager answers a well-formed request: proof that it got there.
    const answered = mallory.client.sendIQ({ to: bob.address, type: 'set', jingle: { action: 'session-terminate', sid: 'guard-2', reason: { condition: 'success' } } });
    await expect(answered).resolves.toMatchObject({ type: 'result' });
    expect(seenByBob.map((iq) => iq.jingle?.sid)).toEqual(['guard-2']);
  });
});

describe('Chat states and real-time text that are not XEP-0085 / XEP-0301 are bounced to their sender', () => {
  it('bounces an unknown chat state and real-time text with a seq that is not a number; valid ones pass', async () => {
    const { roomAddress, mallory, bob } = await room();
    const seenByBob = recordMessages(bob.client);

    const state = await bounced(mallory, { to: roomAddress, type: 'groupchat', shouting: {} });
    expect(state).toMatchObject({ condition: 'bad-request', text: "'shouting' is not a chat state" });
    const rtt = await bounced(mallory, { to: roomAddress, type: 'groupchat', rawRtt: { event: 'new', seq: 'twelve', insert: { text: 'hi' } } });
    expect(rtt).toMatchObject({ condition: 'bad-request', text: 'real-time text has a seq that is not a number' });
    const position = await bounced(mallory, { to: roomAddress, type: 'groupchat', rawRtt: { event: 'edit', seq: '2', insert: { position: '-1', text: 'x' } } });
    expect(position.text).toBe('a real-time text action has a position or count that is not a number');

    const typing = nextEvent<Stanzas.ReceivedMessage>(bob.client, 'message', 'the chat state', (message) => message.chatState === 'composing');
    mallory.client.sendMessage({ to: roomAddress, type: 'groupchat', chatState: 'composing' });
    await typing;
    const text = nextEvent<Stanzas.ReceivedMessage>(bob.client, 'message', 'the real-time text', (message) => message.rtt !== undefined);
    mallory.client.sendMessage({ to: roomAddress, type: 'groupchat', rtt: { event: 'new', seq: 7, actions: [{ type: 'insert', text: 'hi' }] } });
    expect((await text).rtt).toMatchObject({ event: 'new', seq: 7, actions: [{ type: 'insert', text: 'hi' }] });
    expect(seenByBob.filter((message) => message.rtt?.seq !== undefined && message.rtt.seq !== 7)).toEqual([]);
  });
});

describe('A JSON payload or a real-time text action that holds an element is bounced to its sender, and the room goes on', () => {
  it('bounces a groupchat with an element inside its <json>, and one with an element inside an rtt action, with modify/bad-request; the next message passes', async () => {
    const { roomAddress, mallory, bob } = await room();
    const seenByBob = recordMessages(bob.client);
    const before = await rejectedPayloads();

    const json = await bouncedXml(mallory, (id) => groupchatXml(roomAddress, id, "<payload xmlns='urn:xmpp:json-msg:0' datatype='evil'><json xmlns='urn:xmpp:json:0'>{}<x/></json></payload>"));
    expect(json).toMatchObject({ type: 'modify', condition: 'bad-request', text: 'a JSON payload is not valid JSON: it holds an element' });
    const rtt = await bouncedXml(mallory, (id) => groupchatXml(roomAddress, id, "<rtt xmlns='urn:xmpp:rtt:0' event='new' seq='1'><t>hi<x/></t></rtt>"));
    expect(rtt).toMatchObject({ type: 'modify', condition: 'bad-request', text: 'a real-time text action holds an element' });
    expect(await rejectedPayloads()).toBe(before + 2);

    await bodyArrives(mallory, bob, roomAddress, 'still there?');
    expect(seenByBob.map((message) => message.body)).toEqual(['still there?']);
  });
});

/** Two users in no room, each written to at its full JID: Mallory sends anything, Bob is a stock StanzaJS receiver. */
async function twoUsers(): Promise<{ mallory: Person; bob: Person }> {
  const [{ client: malloryClient }, { client: bobClient }] = await Promise.all([loggedIn(false), loggedIn(true)]);
  return { mallory: { client: malloryClient, address: malloryClient.jid }, bob: { client: bobClient, address: bobClient.jid } };
}

describe('A malformed payload sent straight to another user’s full JID, past any room, is bounced to its sender and never reaches that user', () => {
  it('bounces a message whose JSON payload is not JSON and a Jingle request with no known action, with modify/bad-request; a message after them arrives alone', async () => {
    const { mallory, bob } = await twoUsers();
    const seenByBob = recordMessages(bob.client);
    const jingleSeenByBob: Stanzas.IQ[] = [];
    bob.client.on('iq:set:jingle', (iq) => jingleSeenByBob.push(iq));
    const before = await rejectedPayloads();

    const error = await bounced(mallory, { to: bob.address, type: 'chat', rawPayload: { type: 'evil', json: '{not json' } });
    expect(error).toMatchObject({ type: 'modify', condition: 'bad-request', text: 'a JSON payload is not valid JSON: an object key is not a string' });
    const refused = mallory.client.sendIQ({ to: bob.address, type: 'set', jingle: { action: 'take-over' as never, sid: 'guard-1' } });
    await expect(refused).rejects.toMatchObject({ error: { type: 'modify', condition: 'bad-request', text: 'a Jingle request has no known action' } });
    expect(await rejectedPayloads()).toBe(before + 2);

    // One session's stanzas to another arrive in order: once this one is there, the others would have been.
    const arrived = nextEvent<Stanzas.ReceivedMessage>(bob.client, 'message', 'the well-formed message', (message) => message.body === 'still there?');
    mallory.client.sendMessage({ to: bob.address, type: 'chat', body: 'still there?' });
    await arrived;
    expect(seenByBob.map((message) => message.body)).toEqual(['still there?']);
    expect(jingleSeenByBob).toEqual([]);
  });
});
