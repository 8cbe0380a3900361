import { occupantName } from '../../protocol/displayName';
import type { Stanzas } from 'stanza';
import { LIMITS, VOLUME } from '../../protocol/constants';
import { parseCustomerData } from '../../protocol/customerData';
import type { Peer, RequestingMedia } from '../../protocol/entities';
import { readMucItem } from './mucItem';
import { mucInfoOf } from './mucStatus';

const MEDIA: ReadonlySet<string> = new Set<RequestingMedia>(['none', 'audio', 'video']);

export interface PeerContext {
  /** The occupant address (validated): room@muc/nick. */
  address: string;
  roomAddress: string;
  nick: string;
  isSelf: boolean;
  now: number;
  /** The peer as the store holds it now: what presence does not carry (speaking, chat state, …) is kept. */
  previous: Peer | undefined;
}

export interface PeerFromPresence {
  peer: Peer;
  /** The room's stable id, `<user rid>` (validated): the Room keeps the one of our self-presence. */
  rid: string | undefined;
  /** What was wrong with the presence (and ignored), for the log. */
  problems: string[];
}

/** A `<user>` id attribute: a non-empty string of at most `maxLength`, else undefined (and, when present, a problem). */
function userId(value: unknown, name: string, maxLength: number, problems: string[]): string | undefined {
  if (typeof value === 'string' && value.length > 0 && value.length <= maxLength) return value;
  if (value !== undefined) problems.push(`<user ${name}> ignored: empty or too long`);
  return undefined;
}

/** The `<conf media>` of a room presence (PROTOCOL.md): in the call and requesting that media, or not in the call. */
function callOf(presence: Stanzas.Presence): { joinedCall: boolean; requestingMedia: RequestingMedia; problem: string | undefined } {
  const conf = presence.mmucConf;
  if (!conf) return { joinedCall: false, requestingMedia: 'none', problem: undefined };
  const media = conf.media;
  if (media === undefined) return { joinedCall: true, requestingMedia: 'none', problem: undefined };
  if (typeof media === 'string' && MEDIA.has(media)) return { joinedCall: true, requestingMedia: media, problem: undefined };
  return { joinedCall: true, requestingMedia: 'none', problem: 'unknown <conf media> value ignored' };
}

/**
 * SPEC §3 Peer from an occupant presence (PROTOCOL.md "XMPP namespaces"): id from `<user sid>`
 * (else the nick), customerData from the `<user>` text, display name from customerData, else the
 * `<nick>`, else a room nickname a person chose (a plain XMPP client's), else 'Anonymous'; role,
 * affiliation and real address from the MUC item; call state from `<conf>`; and the room's
 * `<user rid>` beside it. Every value is validated and bounded.
 */
export function peerFromPresence(presence: Stanzas.Presence, context: PeerContext): PeerFromPresence {
  const problems: string[] = [];
  const { previous } = context;
  const user = presence.talkyUser;
  const sid = userId(user?.sid, 'sid', LIMITS.peerIdLength, problems);
  const rid = userId(user?.rid, 'rid', LIMITS.ridLength, problems);
  const customerData = parseCustomerData(typeof user?.customerData === 'string' ? user.customerData : undefined);
  if (customerData.problem) problems.push(customerData.problem);
  const item = readMucItem(mucInfoOf(presence));
  const call = callOf(presence);
  if (call.problem) problems.push(call.problem);
  const joinedCallAt = call.joinedCall ? (previous?.joinedCall ? previous.joinedCallAt : context.now) : undefined;

  const peer: Peer = {
    // Defaults for what presence does not carry; other domains keep these current (speaking: below).
    lastSpokeAt: undefined,
    muted: false,
    chatState: 'active',
    requestingAttention: false,
    realTimeText: '',
    rtt: undefined,
    volume: 0,
    volumeLimit: VOLUME.peerLimitDefault,
    hasActiveCamera: false,
    hasActiveMicrophone: false,
    hasActiveScreenCapture: false,
    sessionFailed: false,
    joinedRoomAt: context.now,
    ...previous,
    // What the presence says.
    address: context.address,
    userAddress: item.realAddress ?? previous?.userAddress,
    id: sid ?? context.nick,
    displayName: occupantName([customerData.value.displayName, presence.nick], context.nick),
    customerData: customerData.value,
    role: item.role,
    affiliation: item.affiliation,
    roomAddress: context.roomAddress,
    joinedCall: call.joinedCall,
    joinedCallAt,
    requestingMedia: call.joinedCall ? call.requestingMedia : 'none',
    // Out of the call nobody speaks in it: a '0' lost with the tab that left it changes nothing.
    speaking: call.joinedCall && (previous?.speaking ?? false),
    isSelf: context.isSelf,
    readsPrivateMessages: (presence.legacyCapabilities?.length ?? 0) > 0,
  };
  return { peer, rid, problems };
}
