// Issue 14, the join path: Parley's XMPP client registers only the StanzaJS definitions its wire
// uses (src/protocol/stanzas/stanzaJsDefinitions.ts), which takes most of the client's construction
// off the shared worker's way to its websocket. What it reads must not change for that.
import { createClient, JXT, type Agent, type Stanzas } from 'stanza';
import { describe, expect, it } from 'vitest';
import type { JingleIq } from '../../src/protocol/commands';
import { parleyStanzas } from '../../src/protocol/stanzas';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';
import { useParley } from '../support/parley';
import { connected, flushed, joinedBy, peerNamed, receivedBy, useSessions, waitFor, type TestSession } from '../support/sessions';
import { until } from '../support/until';

const server = useParley();
const openSession = useSessions();

/** StanzaJS's client as it ships, every XEP it knows, with Parley's wire extensions. */
function fullStanzaJs(): JXT.Registry {
  const client = createClient({});
  client.use(parleyStanzas);
  return client.stanzas;
}

/** What a registry reads from one stanza's XML. */
const readBy = (registry: JXT.Registry, xml: string): unknown => registry.import(JXT.parse(xml));

/** A mesh offer as Chromium's SDP becomes Jingle: audio and video, bundled, with ICE, DTLS, feedback, header extensions and sources. */
const OFFER_XML = `<iq xmlns="jabber:client" type="set" id="offer-1">
<jingle xmlns="urn:xmpp:jingle:1" action="session-initiate" sid="definitions-offer">
<content creator="initiator" name="0" senders="initiator">
<description xmlns="urn:xmpp:jingle:apps:rtp:1" media="audio">
<payload-type id="111" name="opus" clockrate="48000" channels="2"><parameter name="minptime" value="10"/><parameter name="useinbandfec" value="1"/><rtcp-fb xmlns="urn:xmpp:jingle:apps:rtp:rtcp-fb:0" type="transport-cc"/></payload-type>
<rtp-hdrext xmlns="urn:xmpp:jingle:apps:rtp:rtp-hdrext:0" id="1" uri="urn:ietf:params:rtp-hdrext:ssrc-audio-level"/>
<rtcp-mux/>
<source xmlns="urn:xmpp:jingle:apps:rtp:ssma:0" ssrc="1111"><parameter name="cname" value="cname-1"/><parameter name="msid" value="stream-1 audio-1"/></source>
</description>
<transport xmlns="urn:xmpp:jingle:transports:ice-udp:1" ufrag="ufrag" pwd="password-of-ice">
<fingerprint xmlns="urn:xmpp:jingle:apps:dtls:0" hash="sha-256" setup="actpass">AA:BB:CC:DD</fingerprint>
<candidate component="1" foundation="1" generation="0" id="candidate-1" ip="127.0.0.1" network="1" port="50000" priority="2122260223" protocol="udp" type="host"/>
</transport>
</content>
<content creator="initiator" name="1" senders="initiator">
<description xmlns="urn:xmpp:jingle:apps:rtp:1" media="video">
<payload-type id="96" name="VP8" clockrate="90000"><rtcp-fb xmlns="urn:xmpp:jingle:apps:rtp:rtcp-fb:0" type="nack"/><rtcp-fb xmlns="urn:xmpp:jingle:apps:rtp:rtcp-fb:0" type="nack" subtype="pli"/><rtcp-fb xmlns="urn:xmpp:jingle:apps:rtp:rtcp-fb:0" type="ccm" subtype="fir"/></payload-type>
<payload-type id="97" name="rtx" clockrate="90000"><parameter name="apt" value="96"/></payload-type>
<rtp-hdrext xmlns="urn:xmpp:jingle:apps:rtp:rtp-hdrext:0" id="3" uri="http://www.webrtc.org/experiments/rtp-hdrext/abs-send-time"/>
<rtcp-mux/>
<source xmlns="urn:xmpp:jingle:apps:rtp:ssma:0" ssrc="2222"><parameter name="cname" value="cname-1"/></source>
<source xmlns="urn:xmpp:jingle:apps:rtp:ssma:0" ssrc="3333"><parameter name="cname" value="cname-1"/></source>
<ssrc-group xmlns="urn:xmpp:jingle:apps:rtp:ssma:0" semantics="FID"><source ssrc="2222"/><source ssrc="3333"/></ssrc-group>
</description>
<transport xmlns="urn:xmpp:jingle:transports:ice-udp:1" ufrag="ufrag" pwd="password-of-ice">
<fingerprint xmlns="urn:xmpp:jingle:apps:dtls:0" hash="sha-256" setup="actpass">AA:BB:CC:DD</fingerprint>
</transport>
</content>
<group xmlns="urn:xmpp:jingle:apps:grouping:0" semantics="BUNDLE"><content name="0"/><content name="1"/></group>
</jingle>
</iq>`.replace(/\n/g, '');

/** The offer's Jingle as a tab hands it to the session (StanzaJS's reading of it). */
function offerFrom(person: TestSession, to: string): JingleIq {
  const { jingle } = readBy(fullStanzaJs(), OFFER_XML) as JingleIq;
  return { to, type: 'set', jingle: { ...jingle, initiator: person.session.client!.jid } } as JingleIq;
}

describe('Stanza definitions: Parley’s XMPP client reads every stanza of a room, its chat and its call as StanzaJS’s full client does (issue 14, the join path: the session worker’s start)', () => {
  it('the presences, chat, moderation, commands and Jingle one session receives and both send read the same with Parley’s definitions as with all of StanzaJS’s', async () => {
    const alice = openSession({ server: server(), displayName: 'Alice' });
    const bob = openSession({ server: server(), displayName: 'Bob' });
    const routed: JingleIq[] = [];
    const received = receivedBy(bob);
    await connected(bob);
    bob.tabs.attach(bob.tabId, { state: () => {}, event: () => {}, jingle: (_room, iq) => routed.push(iq) });
    await bob.preferences.setPreferences({ realTimeText: true });
    await alice.preferences.setPreferences({ realTimeText: true });
    const aliceIn = await joinedBy(alice, 'definitions', { autoJoinCall: true });
    const bobIn = await joinedBy(bob, 'definitions', { autoJoinCall: true });
    await bob.jingle.claimCall(bob.tabId, bobIn.address);
    await peerNamed(alice, aliceIn.address, 'Bob', (peer) => peer.joinedCall);

    await alice.rooms.lockRoom(aliceIn.address, 'secret');
    await alice.rooms.unlockRoom(aliceIn.address);
    await alice.chat.setChatState(aliceIn.address, 'composing');
    await alice.chat.updateRealTimeText(aliceIn.address, 'hel');
    await waitFor(bob, 'Alice’s draft', (state) => state.peers[aliceIn.selfAddress]?.realTimeText === 'hel');
    const sentId = await alice.chat.sendChat(aliceIn.address, 'hello');
    await alice.chat.sendChat(aliceIn.address, 'hello, Bob', sentId);
    await alice.chat.requestAttention(bobIn.selfAddress);
    await alice.chat.sendCommand(bobIn.selfAddress, 'definitions-check', { shown: true });
    await alice.calls.setSpeaking(aliceIn.address, true);
    const offerAnswered = alice.jingle.send(offerFrom(alice, bobIn.selfAddress));
    await until(() => routed.some((iq) => iq.jingle.sid === 'definitions-offer'), 'the offer at Bob’s tab');
    // Bob's tab acknowledges it, as a call's tab does, so that nothing of this case outlives it.
    const offer = routed.find((iq) => iq.jingle.sid === 'definitions-offer')!;
    await bob.jingle.send({ to: offer.from, id: offer.id, type: 'result' });
    await offerAnswered;
    await waitFor(bob, 'the corrected message', (state) => Object.values(state.messages).some((message) => message.body === 'hello, Bob'));
    await flushed(bob);

    const stanzas = [...received, ...bob.sent, ...alice.sent];
    // Each kind of stanza the session handles is in what was compared.
    for (const mark of [
      'http://jabber.org/protocol/muc#user',
      'urn:xmpp:jingle:apps:rtp:1',
      'urn:xmpp:rtt:0',
      'urn:xmpp:message-correct:0',
      'http://jabber.org/protocol/chatstates',
      'urn:xmpp:attention:0',
      'urn:xmpp:json:0',
      'http://jabber.org/protocol/muc#owner',
      'jabber:x:data',
      'https://talky.io/ns/core',
      'http://andyet.net/xmlns/mmuc',
    ])
      expect(stanzas.some((xml) => xml.includes(mark)), mark).toBe(true);
    const full = fullStanzaJs();
    const parley = bob.session.client!.stanzas;
    for (const xml of stanzas.filter((each) => /^<(iq|message|presence)/.test(each))) expect(readBy(parley, xml), xml).toEqual(readBy(full, xml));
  });

  it('what none of Parley’s wire uses stays unread: the client is not StanzaJS’s full one (an OMEMO payload, a PubSub event)', () => {
    const parley: Agent = createParleyXmppClient({});
    const message = `<message xmlns="jabber:client" type="chat"><body>hi</body><encrypted xmlns="eu.siacs.conversations.axolotl"><header sid="1"><iv>aXY=</iv></header><payload>cA==</payload></encrypted><event xmlns="http://jabber.org/protocol/pubsub#event"><items node="urn:xmpp:avatar:metadata"/></event></message>`;
    const read = readBy(parley.stanzas, message) as Stanzas.Message & Record<string, unknown>;
    const readByFull = readBy(fullStanzaJs(), message) as Stanzas.Message & Record<string, unknown>;
    expect(read.body).toBe('hi');
    expect(readByFull.omemo).toBeDefined();
    expect(readByFull.pubsub).toBeDefined();
    expect(read.omemo).toBeUndefined();
    expect(read.pubsub).toBeUndefined();
  });
});

/** What StanzaJS's full client says it speaks and Parley's does not: PEP notifications (avatar, nick, mood, tune, activity, geoloc), ad-hoc commands, bits of binary and PubSub SubIDs, from plugins Parley never calls. */
const LEFT_OUT_FEATURES = [
  'urn:xmpp:avatar:metadata+notify',
  'http://jabber.org/protocol/commands',
  ...['activity', 'geoloc', 'mood', 'nick', 'tune'].flatMap((name) => [`http://jabber.org/protocol/${name}`, `http://jabber.org/protocol/${name}+notify`]),
  'urn:xmpp:bob',
  'http://jabber.org/protocol/shim#SubID',
];

/** A client's disco#info features as `node|feature`. */
function featuresOf(client: Agent): string[] {
  return [...client.disco.features.entries()].flatMap(([node, features]) => [...features].map((feature) => `${node}|${feature}`)).sort();
}

describe('Stanza plugins: Parley’s XMPP client runs only the StanzaJS plugins its session uses, and says it speaks what it did (issue 14, the join path: the session worker’s start)', () => {
  it('disco#info as StanzaJS’s full client’s without the left-out plugins’ features — Jingle, chat states, corrections, real-time text, receipts, rooms and the entity queries stay — and no Jingle session manager (the tabs hold the sessions)', () => {
    const parley = createParleyXmppClient({});
    const full = featuresOf(createClient({}));
    // Its own features, and the same again under its capabilities' node (XEP-0115: what its presences name).
    const [caps] = parley.disco.getCaps();
    const own = featuresOf(parley).filter((feature) => feature.startsWith('|'));
    expect(own).toEqual(full.filter((feature) => !LEFT_OUT_FEATURES.includes(feature.replace(/^[^|]*\|/, ''))));
    expect(featuresOf(parley).filter((feature) => !feature.startsWith('|'))).toEqual(own.map((feature) => `${caps!.node}#${caps!.value}${feature}`));
    for (const feature of ['urn:xmpp:jingle:1', 'http://jabber.org/protocol/chatstates', 'urn:xmpp:message-correct:0', 'urn:xmpp:rtt:0', 'urn:xmpp:receipts', 'http://jabber.org/protocol/muc', 'jabber:iq:version'])
      expect(featuresOf(parley), feature).toContain(`|${feature}`);
    expect((parley as Agent & { jingle?: unknown }).jingle).toBeUndefined();
  });

  it('another client asking a session’s disco#info over the server hears Jingle and real-time text', async () => {
    const alice = openSession({ server: server(), displayName: 'Alice' });
    const bob = openSession({ server: server(), displayName: 'Bob' });
    await connected(alice);
    await connected(bob);
    const info = await bob.session.client!.getDiscoInfo(alice.session.client!.jid);
    expect(info.features).toEqual(expect.arrayContaining(['urn:xmpp:jingle:1', 'urn:xmpp:rtt:0', 'urn:xmpp:message-correct:0']));
  });
});
