import type { SfuServerConfig } from '../../protocol/config';
import { MEDIA_RELAY } from '../../protocol/constants';
import type { Clock } from '../../common/clock';
import type { CallPeer } from './sessionPlan';
import { TypedEmitter } from '../../common/TypedEmitter';

/**
 * SPEC §4 / DESIGN "Media paths": max(remote peers requesting audio, remote peers requesting
 * video), over the peers in the call. A peer asking for video takes our audio too, so it counts
 * as requesting both.
 */
export function relayPeerCount(peers: readonly CallPeer[]): number {
  let audio = 0;
  let video = 0;
  for (const peer of peers) {
    if (!peer.joinedCall) continue;
    if (peer.requestingMedia === 'audio' || peer.requestingMedia === 'video') audio += 1;
    if (peer.requestingMedia === 'video') video += 1;
  }
  return Math.max(audio, video);
}

/** Whether these peers call for the relay: SPEC §4's count against `sfuServer.minimumPeers` (at least 1: never for a call of one). */
export function relayCalledFor(peers: readonly CallPeer[], sfuServer: Pick<SfuServerConfig, 'minimumPeers'>): boolean {
  return relayPeerCount(peers) >= Math.max(1, sfuServer.minimumPeers);
}

export interface RelayDecisionEvents {
  /** The switch moved (on at once, off after the shutdown delay). */
  change: [wanted: boolean];
}

/**
 * The relay switch of SPEC §4: on as soon as the count reaches `sfuServer.minimumPeers`, off once
 * it has stayed below for MEDIA_RELAY.shutdownDelayMs (a count that climbs back in time cancels
 * the shutdown). Without an sfuServer in the config there is no relay at all.
 */
export class RelayDecision extends TypedEmitter<RelayDecisionEvents> {
  private active = false;
  private shutdown: unknown;

  constructor(private readonly clock: Clock) {
    super();
  }

  get wanted(): boolean {
    return this.active;
  }

  /** Takes the room's remote peers and the config's sfuServer; returns whether the relay is wanted now. */
  update(peers: readonly CallPeer[], sfuServer: Pick<SfuServerConfig, 'minimumPeers'> | undefined): boolean {
    if (!sfuServer) {
      this.cancelShutdown();
      this.set(false);
      return this.active;
    }
    if (relayCalledFor(peers, sfuServer)) {
      this.cancelShutdown();
      this.set(true);
    } else if (this.active && this.shutdown === undefined) {
      this.shutdown = this.clock.setTimeout(() => {
        this.shutdown = undefined;
        this.set(false);
      }, MEDIA_RELAY.shutdownDelayMs);
    }
    return this.active;
  }

  /** Stops the pending shutdown timer (the call closes). */
  dispose(): void {
    this.cancelShutdown();
  }

  private cancelShutdown(): void {
    if (this.shutdown === undefined) return;
    this.clock.clearTimeout(this.shutdown);
    this.shutdown = undefined;
  }

  private set(on: boolean): void {
    if (on === this.active) return;
    this.active = on;
    this.emit('change', on);
  }
}
