// SPEC §3 Peer from an occupant presence (PROTOCOL.md "XMPP namespaces": <user>, <conf>, <nick>), on
// presences shaped as Prosody with Parley's modules sends them, parsed by the StanzaJS client Parley uses.
import { JXT, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import type { Peer } from '../../src/protocol/entities';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';
import { peerFromPresence, type PeerContext } from '../../src/shared-worker/rooms/peerFromPresence';
import { PEER_DEFAULTS } from '../support/peers';

const registry = createParleyXmppClient({}).stanzas;
const ROOM = 'room@rooms.example';
const NICK = '5f0c2d7e-0000-4000-8000-000000000001';
const ADDRESS = `${ROOM}/${NICK}`;

interface Parts {
  nick?: string;
  user?: string;
  item?: string;
  conf?: string;
  status?: string;
  caps?: string;
}

function occupantPresence(parts: Parts = {}): Stanzas.Presence {
  const {
    nick = `<nick xmlns='http://jabber.org/protocol/nick'>Bob</nick>`,
    user = `<user xmlns='https://talky.io/ns/core' sid='${NICK}' rid='r1' type='guest'>{}</user>`,
    item = `<item role='participant' affiliation='none' jid='bob@example/${NICK}'/>`,
    conf = '',
    status = '',
    caps = '',
  } = parts;
  const xml = `<presence xmlns='jabber:client' from='${ADDRESS}' to='me@example/r'>${nick}${user}${conf}${caps}
    <x xmlns='http://jabber.org/protocol/muc#user'>${item}${status}</x></presence>`;
  return registry.import(JXT.parse(xml)) as Stanzas.Presence;
}

function context(change: Partial<PeerContext> = {}): PeerContext {
  return { address: ADDRESS, roomAddress: ROOM, nick: NICK, isSelf: false, now: 1_000, previous: undefined, ...change };
}

describe('SPEC §3 Peer from an occupant presence', () => {
  it('sets every field: id from <user sid>, display name from <nick>, role, affiliation, real address, call from <conf>', () => {
    const { peer, problems } = peerFromPresence(occupantPresence({ conf: `<conf xmlns='http://andyet.net/xmlns/mmuc' media='audio'/>` }), context());
    expect(problems).toEqual([]);
    expect(peer).toEqual({
      address: ADDRESS,
      userAddress: `bob@example/${NICK}`,
      id: NICK,
      displayName: 'Bob',
      customerData: {},
      role: 'participant',
      affiliation: 'none',
      roomAddress: ROOM,
      joinedCall: true,
      joinedCallAt: 1_000,
      joinedRoomAt: 1_000,
      requestingMedia: 'audio',
      ...PEER_DEFAULTS,
      isSelf: false,
      readsPrivateMessages: false,
    } satisfies Peer);
  });

  it('a presence that says what its app can do (XEP-0115) is from an app a private message reaches; one that says nothing (SimpleWebRTC 1.30.3) is not', () => {
    const gajim = occupantPresence({ caps: `<c xmlns='http://jabber.org/protocol/caps' hash='sha-1' node='https://gajim.org' ver='q07IKJEyjvHSyhy//CH0CxmKi8w='/>` });
    expect(peerFromPresence(gajim, context()).peer.readsPrivateMessages).toBe(true);
    expect(peerFromPresence(occupantPresence(), context()).peer.readsPrivateMessages).toBe(false);
    const dropped = peerFromPresence(occupantPresence(), context({ previous: peerFromPresence(gajim, context()).peer }));
    expect(dropped.peer.readsPrivateMessages, 'each presence says it anew').toBe(false);
  });

  it('takes the display name from customerData over the nick, and falls back to Anonymous', () => {
    const withData = occupantPresence({ user: `<user xmlns='https://talky.io/ns/core' sid='${NICK}'>{"displayName":"Robert","plan":"pro"}</user>` });
    expect(peerFromPresence(withData, context()).peer).toMatchObject({ displayName: 'Robert', customerData: { displayName: 'Robert', plan: 'pro' } });
    const numberName = occupantPresence({ user: `<user xmlns='https://talky.io/ns/core' sid='${NICK}'>{"displayName":42}</user>` });
    expect(peerFromPresence(numberName, context()).peer.displayName).toBe('Bob');
    expect(peerFromPresence(occupantPresence({ nick: '' }), context()).peer.displayName).toBe('Anonymous');
    expect(peerFromPresence(occupantPresence({ nick: `<nick xmlns='http://jabber.org/protocol/nick'>   </nick>` }), context()).peer.displayName).toBe('Anonymous');
  });

  it('falls back to the room nickname a person chose (a plain XMPP client sends no other name), never to an issued id', () => {
    const chosen = `${ROOM}/dave_on_gajim`;
    const plain = occupantPresence({ nick: '', user: '' });
    expect(peerFromPresence(plain, context({ address: chosen, nick: 'dave_on_gajim' })).peer.displayName).toBe('dave_on_gajim');
    // What the occupant says of itself comes first.
    expect(peerFromPresence(occupantPresence(), context({ address: chosen, nick: 'dave_on_gajim' })).peer.displayName).toBe('Bob');
    // Parley's and SimpleWebRTC's clients join under their config id: that names nobody.
    expect(peerFromPresence(plain, context()).peer.displayName).toBe('Anonymous');
    expect(peerFromPresence(plain, context({ nick: NICK.toUpperCase() })).peer.displayName).toBe('Anonymous');
  });

  it('bounds the display name', () => {
    const long = occupantPresence({ nick: `<nick xmlns='http://jabber.org/protocol/nick'>${'n'.repeat(1000)}</nick>` });
    expect(peerFromPresence(long, context()).peer.displayName).toHaveLength(LIMITS.displayNameLength);
  });

  it('reads invalid, non-object or over-size customerData as {} and says why', () => {
    const cases: Array<[string, string]> = [
      ['{not json', 'customerData is not valid JSON'],
      ['[1,2]', 'customerData is not a JSON object'],
      [JSON.stringify({ blob: 'x'.repeat(LIMITS.customerDataBytes) }), `customerData is larger than ${LIMITS.customerDataBytes} bytes`],
      // Counted in UTF-8, as it goes on the wire: fewer characters than the bound, three times the bytes.
      [JSON.stringify({ blob: '語'.repeat(LIMITS.customerDataBytes / 2) }), `customerData is larger than ${LIMITS.customerDataBytes} bytes`],
    ];
    for (const [text, problem] of cases) {
      const { peer, problems } = peerFromPresence(occupantPresence({ user: `<user xmlns='https://talky.io/ns/core' sid='${NICK}'>${text}</user>` }), context());
      expect(peer.customerData).toEqual({});
      expect(problems).toEqual([problem]);
    }
  });

  it('falls back to the nick for the id without a usable <user sid>', () => {
    expect(peerFromPresence(occupantPresence({ user: '' }), context()).peer.id).toBe(NICK);
    const long = occupantPresence({ user: `<user xmlns='https://talky.io/ns/core' sid='${'s'.repeat(1000)}'>{}</user>` });
    expect(peerFromPresence(long, context()).peer.id).toBe(NICK);
  });

  it("reads the room's <user rid>: absent or empty as none, an over-long one ignored and said why", () => {
    const withRid = (rid: string) => occupantPresence({ user: `<user xmlns='https://talky.io/ns/core' sid='${NICK}' rid='${rid}'>{}</user>` });
    expect(peerFromPresence(occupantPresence(), context())).toMatchObject({ rid: 'r1', problems: [] });
    const longest = 'r'.repeat(LIMITS.ridLength);
    expect(peerFromPresence(withRid(longest), context())).toMatchObject({ rid: longest, problems: [] });
    expect(peerFromPresence(withRid(`${longest}r`), context())).toMatchObject({ rid: undefined, problems: ['<user rid> ignored: empty or too long'] });
    // StanzaJS reads an empty attribute as absent.
    expect(peerFromPresence(withRid(''), context())).toMatchObject({ rid: undefined, problems: [] });
    expect(peerFromPresence(occupantPresence({ user: '' }), context())).toMatchObject({ rid: undefined, problems: [] });
  });

  it('reads unknown roles and affiliations as none, and a malformed real address as absent', () => {
    const odd = occupantPresence({ item: `<item role='emperor' affiliation='god' jid='not a jid'/>` });
    expect(peerFromPresence(odd, context()).peer).toMatchObject({ role: 'none', affiliation: 'none', userAddress: undefined });
    const owner = occupantPresence({ item: `<item role='moderator' affiliation='owner'/>` });
    expect(peerFromPresence(owner, context()).peer).toMatchObject({ role: 'moderator', affiliation: 'owner', userAddress: undefined });
  });

  it('is not in the call without <conf>, and ignores an unknown media value', () => {
    expect(peerFromPresence(occupantPresence(), context()).peer).toMatchObject({ joinedCall: false, requestingMedia: 'none', joinedCallAt: undefined });
    const odd = peerFromPresence(occupantPresence({ conf: `<conf xmlns='http://andyet.net/xmlns/mmuc' media='hologram'/>` }), context());
    expect(odd.peer).toMatchObject({ joinedCall: true, requestingMedia: 'none' });
    expect(odd.problems).toEqual(['unknown <conf media> value ignored']);
  });

  it('keeps what presence does not carry, and the times of joining, from the previous record', () => {
    const first = peerFromPresence(occupantPresence({ conf: `<conf xmlns='http://andyet.net/xmlns/mmuc' media='video'/>` }), context({ now: 1_000 })).peer;
    const previous: Peer = { ...first, speaking: true, lastSpokeAt: 900, chatState: 'composing', muted: true, volume: 0.4, volumeLimit: 0.5, realTimeText: 'hel' };
    const next = peerFromPresence(occupantPresence({ conf: `<conf xmlns='http://andyet.net/xmlns/mmuc' media='audio'/>` }), context({ now: 5_000, previous })).peer;
    expect(next).toEqual({ ...previous, requestingMedia: 'audio' });
    const leftCall = peerFromPresence(occupantPresence(), context({ now: 6_000, previous: next })).peer;
    // Out of the call nobody speaks in it, even when their '0' never came (their call tab closed); when they last spoke stays.
    expect(leftCall).toMatchObject({ joinedCall: false, joinedCallAt: undefined, joinedRoomAt: 1_000, speaking: false, lastSpokeAt: 900 });
    const back = peerFromPresence(occupantPresence({ conf: `<conf xmlns='http://andyet.net/xmlns/mmuc' media='video'/>` }), context({ now: 7_000, previous: leftCall })).peer;
    expect(back.joinedCallAt).toBe(7_000);
  });

  it('marks our own occupant', () => {
    expect(peerFromPresence(occupantPresence({ status: `<status code='110'/>` }), context({ isSelf: true })).peer.isSelf).toBe(true);
  });
});
