import type { createStore } from 'jotai';
import type { Logger } from '../../common/logger';
import { peersAtom, roomByAddressAtomFamily } from '../sessionAtoms';
import type { LocalMediaState } from './localMediaState';
import { selfFactsChange, selfMediaFacts, type SelfMediaFacts } from './selfMediaFacts';
import type { CallTabCommands } from './sessionCommands';

type JotaiStore = ReturnType<typeof createStore>;

export interface SelfReportsOptions {
  readonly roomAddress: string;
  readonly store: JotaiStore;
  readonly commands: CallTabCommands;
  readonly logger: Logger;
  /** Your microphone and camera as they are now. */
  readonly local: () => LocalMediaState;
  /** This tab runs the call and you are in it. */
  readonly inCall: () => boolean;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * What the call tab tells the room about you: that you speak (while you are in the call and not
 * muted), and — from the tab that runs the call — your own muted / camera / screen facts on your
 * Peer record. Each is sent once per change.
 */
export class SelfReports {
  private announcedSpeaking = false;
  /** This tab runs the call and so tells the session your own media facts. */
  private reporting = false;
  /** What we last reported, for the self peer record it went to (a rejoin makes a new record). */
  private sent: { record: string; facts: SelfMediaFacts } | undefined;

  constructor(private readonly options: SelfReportsOptions) {}

  /** This tab starts or stops running the call. */
  setReporting(reporting: boolean): void {
    this.reporting = reporting;
  }

  /** Something they depend on changed (media, phase, peers): what changed is sent. */
  follow(): void {
    this.followSpeaking();
    this.followFacts();
  }

  /** Issue 6: your speaking goes to the room while you are in the call and not muted. */
  private followSpeaking(): void {
    const microphone = this.options.local().microphone;
    const speaking = this.options.inCall() && microphone !== undefined && !microphone.muted && microphone.speaking;
    if (speaking === this.announcedSpeaking) return;
    this.announcedSpeaking = speaking;
    this.options.commands.calls.setSpeaking(this.options.roomAddress, speaking).catch((error: unknown) => this.options.logger.error(`speaking not announced: ${describe(error)}`));
  }

  /** Your own muted / camera / screen facts on your Peer record, from the tab that runs the call. */
  private followFacts(): void {
    if (!this.reporting) return;
    const { store } = this.options;
    const room = store.get(roomByAddressAtomFamily(this.options.roomAddress));
    const self = room?.selfAddress === undefined ? undefined : store.get(peersAtom)[room.selfAddress];
    if (!self) return;
    const record = `${self.address}\n${self.joinedRoomAt}`;
    // Compared with what is on its way, not with the record, which catches up only when the session's patch arrives.
    const known = this.sent?.record === record ? this.sent.facts : self;
    const facts = selfMediaFacts(this.options.local(), this.options.inCall());
    const change = selfFactsChange(known, facts);
    if (!change) return;
    this.sent = { record, facts };
    this.options.commands.calls.reportPeerMedia(self.address, change).catch((error: unknown) => this.options.logger.error(`own media not reported: ${describe(error)}`));
  }
}
