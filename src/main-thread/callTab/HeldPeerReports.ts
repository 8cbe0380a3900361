import type { createStore } from 'jotai';
import { errorMessage } from '../../common/errorMessage';
import { sameItems } from '../../common/sameItems';
import type { Logger } from '../../common/logger';
import { heldPeersAtom } from '../call/callAtoms';
import type { CallTabCommands } from './sessionCommands';

export interface HeldPeerReportsOptions {
  readonly roomAddress: string;
  readonly store: ReturnType<typeof createStore>;
  readonly commands: CallTabCommands;
  readonly logger: Logger;
}

/**
 * Tells the shared session whom this tab's call keeps although the room says they left (the call's
 * heldPeersAtom), so that every tab of the room, a pop-out chat too, reads their leave as a
 * reconnection (CallRecord heldPeers). Sent once per change of the addresses.
 */
export class HeldPeerReports {
  private sent: readonly string[] = [];

  constructor(private readonly options: HeldPeerReportsOptions) {}

  follow(): void {
    const { store, roomAddress, commands, logger } = this.options;
    const held = (store.get(heldPeersAtom)[roomAddress] ?? []).map((peer) => peer.address);
    if (sameItems(held, this.sent)) return;
    this.sent = held;
    commands.calls.setHeldPeers(roomAddress, held).catch((error: unknown) => logger.error(`who the call keeps not reported: ${errorMessage(error)}`));
  }
}
