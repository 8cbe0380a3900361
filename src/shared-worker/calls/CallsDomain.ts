import { JID, type Agent, type Stanzas } from 'stanza';
import type { CallsCommands, OwnMediaRequest, PeerMediaChange } from '../../protocol/commands';
import { LIMITS } from '../../protocol/constants';
import type { OwnCallMedia, Peer } from '../../protocol/entities';
import { CallNotRunningError, ValidationError } from '../../protocol/errors';
import { roomByAddress } from '../../protocol/roomLookup';
import { expectRecord, expectString } from '../../protocol/validate';
import type { SessionContext, SessionDomain } from '../SessionContext';
import { announceSpeaking, markSpeaking } from './selfSpeaking';

const REPORTED_FIELDS = new Set<keyof PeerMediaChange>(['muted', 'hasActiveCamera', 'hasActiveMicrophone', 'hasActiveScreenCapture', 'sessionFailed']);
const OWN_MEDIA_FLAGS = new Set(['microphoneMuted', 'cameraOff', 'sharingScreen', 'cameraStopped', 'microphoneStopped'] as const);
const OWN_MEDIA_WORDS = new Set<string>(['cameraTrouble', 'microphoneTrouble']);
const REQUESTABLE_FIELDS = new Set<keyof OwnMediaRequest>(['microphoneMuted', 'cameraOff']);

/** A change naming only `allowed` fields, each true or false. */
function expectFlags<Field extends string>(change: unknown, allowed: ReadonlySet<Field>, what: string): Partial<Record<Field, boolean>> {
  const fields = expectRecord(change, what);
  for (const [name, value] of Object.entries(fields)) {
    if (!allowed.has(name as Field)) throw new ValidationError(`unknown ${what} field ${name}`);
    if (typeof value !== 'boolean') throw new ValidationError(`${name} must be true or false`);
  }
  return fields as Partial<Record<Field, boolean>>;
}

/** A change of your own media: its flags true or false, its troubles words of bounded length. */
function expectOwnMedia(change: unknown): Partial<OwnCallMedia> {
  const fields = Object.entries(expectRecord(change, 'own media'));
  const words = fields.filter(([name]) => OWN_MEDIA_WORDS.has(name)).map(([name, value]) => [name, expectString(value, name, LIMITS.deviceTroubleLength)]);
  const flags = expectFlags(Object.fromEntries(fields.filter(([name]) => !OWN_MEDIA_WORDS.has(name))), OWN_MEDIA_FLAGS, 'own media');
  return { ...flags, ...Object.fromEntries(words) };
}

/**
 * Call facts every tab sees on Peer records: what the call's tab learns of peers' media, and who
 * is speaking (PROTOCOL.md: a bodiless groupchat `<state speaking='1|0'/>`).
 */
export class CallsDomain implements SessionDomain, CallsCommands {
  constructor(
    private readonly context: SessionContext,
    /** What the session last knew of someone gone from their room (RoomsDomain): the record a held person is listed as. */
    private readonly lastRecordOf: (peerAddress: string) => Peer | undefined,
    /** Hands a request to the tab that runs the room's call (JingleRouter's owner); false when none does. */
    private readonly askCallTab: (roomAddress: string, change: OwnMediaRequest) => boolean,
    /** Keeps the volume chosen for someone gone from their room (RoomsDomain): the record they come back with carries it. */
    private readonly rememberVolumeLimit: (peerAddress: string, volumeLimit: number) => void,
  ) {}

  attachClient(client: Agent): void {
    client.on('message', (message) => {
      if (message.type === 'groupchat') this.onGroupchat(message);
    });
  }

  async reportPeerMedia(peerAddress: string, change: PeerMediaChange): Promise<void> {
    const fields = expectFlags(change, REPORTED_FIELDS, 'peer media');
    // A report about a peer who has just left is moot: there is no record to change.
    this.context.store.update('peers', peerAddress, fields);
  }

  async setSpeaking(roomAddress: string, speaking: boolean): Promise<void> {
    if (typeof speaking !== 'boolean') throw new ValidationError('speaking must be true or false');
    announceSpeaking(this.context, roomAddress, speaking);
  }

  async setPeerVolumeLimit(peerAddress: string, volumeLimit: number): Promise<void> {
    if (typeof volumeLimit !== 'number' || !(volumeLimit >= 0 && volumeLimit <= 1)) throw new ValidationError('volumeLimit must be a number from 0 to 1');
    // Someone the room does not list now (a lost connection, ours or theirs; the call keeps their tile)
    // comes back at the level chosen meanwhile, not the one before.
    if (!this.context.store.update('peers', peerAddress, { volumeLimit })) this.rememberVolumeLimit(peerAddress, volumeLimit);
  }

  /** Issue 13: your own mute, camera-off and screen share, kept where a tab taking the call over reads them. */
  async setOwnMedia(roomAddress: string, change: Partial<OwnCallMedia>): Promise<void> {
    const address = expectString(roomAddress, 'room address', LIMITS.addressLength);
    const fields = expectOwnMedia(change);
    const call = this.context.store.state.calls[address];
    // Out of the call there is nothing to carry: leaving resets it.
    if (!call?.joined) return;
    this.context.store.upsert('calls', address, { ...call, ownMedia: { ...call.ownMedia, ...fields } });
  }

  /**
   * Whom the call keeps although the room says they left, as the session last knew them: every tab
   * lists them and reads their leave as a reconnection. Someone the session has no record of (back
   * meanwhile, or never gone) is not kept.
   */
  async setHeldPeers(roomAddress: string, peerAddresses: readonly string[]): Promise<void> {
    const address = expectString(roomAddress, 'room address', LIMITS.addressLength);
    if (!Array.isArray(peerAddresses)) throw new ValidationError('held peers must be a list of addresses');
    if (peerAddresses.length > LIMITS.heldPeersPerCall) throw new ValidationError(`a call keeps at most ${LIMITS.heldPeersPerCall} people who left`);
    const held = peerAddresses.map((peer) => expectString(peer, 'held peer address', LIMITS.addressLength));
    const outsider = held.find((peer) => JID.toBare(peer) !== address || JID.getResource(peer) === '');
    if (outsider !== undefined) throw new ValidationError(`${outsider} is no occupant of ${address}`);
    const call = this.context.store.state.calls[address];
    // Out of the call nobody is kept: leaving clears them.
    if (!call?.joined) return;
    const heldPeers = [...new Set(held)].flatMap((peer) => this.lastRecordOf(peer) ?? []);
    this.context.store.upsert('calls', address, { ...call, heldPeers });
  }

  /** The pop-out chat's microphone and camera: the call's tab does what its own buttons would. */
  async requestOwnMedia(roomAddress: string, change: OwnMediaRequest): Promise<void> {
    const address = expectString(roomAddress, 'room address', LIMITS.addressLength);
    const fields = expectFlags(change, REQUESTABLE_FIELDS, 'own media request');
    if (Object.keys(fields).length === 0) throw new ValidationError('an own media request asks for the microphone, the camera or both');
    if (this.context.store.state.calls[address]?.joined !== true || !this.askCallTab(address, fields)) throw new CallNotRunningError();
  }

  private onGroupchat(message: Stanzas.ReceivedMessage): void {
    const speaking = message.mmucState?.speaking;
    if (speaking !== '1' && speaking !== '0') return;
    // Our own echo changes nothing: we marked ourselves when we sent it.
    const room = roomByAddress(this.context.store.state.rooms, JID.toBare(message.from));
    if (!room || room.selfAddress === message.from) return;
    markSpeaking(this.context, message.from, speaking === '1');
  }
}
