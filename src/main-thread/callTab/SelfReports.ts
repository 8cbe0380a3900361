import type { createStore } from 'jotai';
import type { Logger } from '../../common/logger';
import type { OwnCallMedia, Peer } from '../../protocol/entities';
import { callAtomFamily, peersAtom, roomByAddressAtomFamily } from '../sessionAtoms';
import { ownMediaChange } from './callHandover';
import type { LocalMediaState } from './localMediaState';
import type { DeviceTroubles, WantedDevices } from './LocalCapture';
import { selfFactsChange, selfMediaFacts, type SelfMediaFacts } from './selfMediaFacts';
import type { CallTabCommands } from './sessionCommands';
import { errorMessage } from '../../common/errorMessage';

type JotaiStore = ReturnType<typeof createStore>;

export interface SelfReportsOptions {
  readonly roomAddress: string;
  readonly store: JotaiStore;
  readonly commands: CallTabCommands;
  readonly logger: Logger;
  /** Your microphone and camera as they are now. */
  readonly local: () => LocalMediaState;
  /** Why your camera or microphone did not start, as it stands now. */
  readonly troubles: () => DeviceTroubles;
  /** The camera and microphone you want on: what the record says of one that does not run. */
  readonly wanted: () => WantedDevices;
  /** This tab runs the call and you are in it. */
  readonly inCall: () => boolean;
}


/**
 * What the call tab tells the room about you: that you speak (while you are in the call and not
 * muted), and — from the tab that runs the call — your own muted / camera / screen facts on your
 * Peer record. Each is sent once per change.
 */
export class SelfReports {
  /** Speaking as last sent, for the self peer record it went to, until that record says so. */
  private sentSpeaking: { record: string; speaking: boolean } | undefined;
  /** This tab runs the call and so tells the session your own media facts. */
  private reporting = false;
  /** What we last reported, for the self peer record it went to (a rejoin makes a new record). */
  private sent: { record: string; facts: SelfMediaFacts } | undefined;
  /** Your own media as last written to the call record, while this tab runs the call. */
  private sentOwnMedia: OwnCallMedia | undefined;

  constructor(private readonly options: SelfReportsOptions) {}

  /** This tab starts or stops running the call. */
  setReporting(reporting: boolean): void {
    this.reporting = reporting;
    this.sentOwnMedia = undefined;
  }

  /** Something they depend on changed (media, phase, peers): what changed is sent. */
  follow(): void {
    this.followSpeaking();
    this.followFacts();
    this.followOwnMedia();
  }

  /**
   * Issue 6: your speaking goes to the room while you are in the call and not muted. From the tab
   * that runs the call, compared with your own Peer record, which is what the room knows: a
   * rejoin's new record (speaking false), or one a closed tab left saying you speak, is corrected.
   */
  private followSpeaking(): void {
    if (!this.reporting) return;
    const found = this.selfRecord();
    const self = found?.joined ? found.self : undefined;
    // Out of the room (its connection lost) nothing can be said; its rejoin brings a new record.
    if (!self) {
      this.sentSpeaking = undefined;
      return;
    }
    const record = recordOf(self);
    // Compared with what is on its way until the record catches up (the session's patch comes after the command).
    if (this.sentSpeaking?.record === record && this.sentSpeaking.speaking === self.speaking) this.sentSpeaking = undefined;
    const known = this.sentSpeaking?.record === record ? this.sentSpeaking.speaking : self.speaking;
    const microphone = this.options.local().microphone;
    const speaking = this.options.inCall() && microphone !== undefined && !microphone.muted && microphone.speaking;
    if (speaking === known) return;
    this.sentSpeaking = { record, speaking };
    this.options.commands.calls.setSpeaking(this.options.roomAddress, speaking).catch((error: unknown) => this.options.logger.error(`speaking not announced: ${errorMessage(error)}`));
  }

  /** Your own Peer record in the room, and whether the room is joined (while it waits for its rejoin, the record is the one it had). */
  private selfRecord(): { self: Peer; joined: boolean } | undefined {
    const { store } = this.options;
    const room = store.get(roomByAddressAtomFamily(this.options.roomAddress));
    const self = room?.selfAddress === undefined ? undefined : store.get(peersAtom)[room.selfAddress];
    return self && { self, joined: room?.joined === true };
  }

  /** Issue 13: your mute, camera-off and screen share on the call record, which a tab taking the call over reads; and why a device did not start, which your other tabs say. */
  private followOwnMedia(): void {
    if (!this.reporting || !this.options.inCall()) return;
    const { store, roomAddress } = this.options;
    const call = store.get(callAtomFamily(roomAddress));
    if (!call?.joined) return;
    // Compared with what is on its way: the record catches up only when the session's patch arrives.
    const known = this.sentOwnMedia ?? call.ownMedia;
    const change = ownMediaChange(known, this.options.local(), this.options.troubles(), this.options.wanted());
    if (!change) return;
    this.sentOwnMedia = { ...known, ...change };
    this.options.commands.calls.setOwnMedia(roomAddress, change).catch((error: unknown) => this.options.logger.error(`own media not kept: ${errorMessage(error)}`));
  }

  /** Your own muted / camera / screen facts on your Peer record, from the tab that runs the call. */
  private followFacts(): void {
    if (!this.reporting) return;
    const self = this.selfRecord()?.self;
    if (!self) return;
    const record = recordOf(self);
    // Compared with what is on its way, not with the record, which catches up only when the session's patch arrives.
    const known = this.sent?.record === record ? this.sent.facts : self;
    const facts = selfMediaFacts(this.options.local(), this.options.inCall());
    const change = selfFactsChange(known, facts);
    if (!change) return;
    this.sent = { record, facts };
    this.options.commands.calls.reportPeerMedia(self.address, change).catch((error: unknown) => this.options.logger.error(`own media not reported: ${errorMessage(error)}`));
  }
}

/** Which self peer record: a rejoin of the room makes a new one (joined at a new time). */
function recordOf(self: Peer): string {
  return `${self.address}\n${self.joinedRoomAt}`;
}
