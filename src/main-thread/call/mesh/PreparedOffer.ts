import type { Stanzas } from 'stanza';
import type { Clock } from '../../../common/clock';
import { errorMessage } from '../../../common/errorMessage';
import type { Logger } from '../../../common/logger';
import { PREPARED_OFFER } from '../../../protocol/clientDefaults';
import type { MediaItems } from '../../media';
import { sessionInitiateOf } from '../ParleyMediaSession';
import type { ShareableMedia } from '../sessionPlan';
import type { SizedEncoding } from './meshVideoSize';

export interface PreparedOfferOptions {
  /** The tab's media items: the tracks the offer sends. */
  readonly media: MediaItems;
  readonly clock: Clock;
  readonly logger: Logger;
  /** A connection as the call's sessions get theirs (none where the browser has no WebRTC). */
  readonly createConnection: () => RTCPeerConnection | undefined;
  /** What each sent item's one encoding starts with (MeshPath: a camera's size until its receiver asks). */
  readonly videoEncoding: (item: ShareableMedia) => SizedEncoding | undefined;
}

/** A connection whose offer is set, and that offer as the session-initiate sends it, candidates inline. */
export interface OfferMadeAhead {
  readonly connection: RTCPeerConnection;
  readonly initiate: Readonly<Partial<Stanzas.Jingle>>;
}

interface Prepared {
  readonly signature: string;
  readonly connection: RTCPeerConnection;
  readonly madeAt: number;
  /**
   * Written once its offer is set and its candidates gathered: it may be handed out. Not before: a
   * candidate the session heard of would go out as transport-info ahead of the session-initiate it
   * belongs to.
   */
  initiate: Partial<Stanzas.Jingle> | undefined;
}

/**
 * An offer made ahead for the next person to join the call (issue 14, the join path): a connection
 * sending what a newcomer would get, its offer created and set and its candidates gathered, so the
 * mesh session to a newcomer starts with its session-initiate, candidates inline, instead of making
 * the connection, its transceivers and its offer, and writing that offer as Jingle, once the
 * newcomer is there. One at a time, made
 * PREPARED_OFFER.delayMs after what it would send last changed or the last was taken (never in the
 * middle of a join), and made anew once PREPARED_OFFER.maxAgeMs old.
 */
export class PreparedOffer {
  private prepared: Prepared | undefined;
  private wanted: { signature: string; media: readonly ShareableMedia[] } | undefined;
  private timer: unknown;
  private closed = false;

  constructor(private readonly options: PreparedOfferOptions) {}

  /** Keeps an offer ready that sends `media` (undefined: none is wanted). */
  follow(media: readonly ShareableMedia[] | undefined): void {
    if (this.closed) return;
    const signature = media && media.length > 0 ? this.signatureOf(media) : undefined;
    if (signature === this.wanted?.signature) return;
    this.wanted = media && signature ? { signature, media } : undefined;
    this.discard();
    this.schedule(PREPARED_OFFER.delayMs);
  }

  /** The offer that sends exactly `media`, if one is ready; its connection is from now on the caller's. */
  take(media: readonly ShareableMedia[]): OfferMadeAhead | undefined {
    const prepared = this.prepared;
    const initiate = prepared?.initiate;
    if (!initiate || prepared.signature !== this.signatureOf(media) || prepared.connection.signalingState !== 'have-local-offer') return undefined;
    this.prepared = undefined;
    this.schedule(PREPARED_OFFER.delayMs);
    return { connection: prepared.connection, initiate };
  }

  close(): void {
    this.closed = true;
    this.wanted = undefined;
    this.cancelTimer();
    this.discard();
  }

  /** Which tracks, of which items, in which order: an offer sends exactly these. */
  private signatureOf(media: readonly ShareableMedia[]): string {
    return media.map((item) => `${item.id}:${item.kind}:${this.options.media.getTrack(item.id)?.id ?? ''}`).join('\n');
  }

  private schedule(delayMs: number): void {
    this.cancelTimer();
    if (!this.wanted) return;
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = undefined;
      this.renew();
    }, delayMs);
  }

  private cancelTimer(): void {
    if (this.timer === undefined) return;
    this.options.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** Makes the wanted offer unless one as wanted and young enough is there; comes back when it is due again. */
  private renew(): void {
    const wanted = this.wanted;
    if (!wanted || this.closed) return;
    const { clock } = this.options;
    const current = this.prepared;
    if (current?.signature !== wanted.signature || clock.now() - current.madeAt >= PREPARED_OFFER.maxAgeMs) {
      this.discard();
      void this.make(wanted);
    }
    this.schedule(PREPARED_OFFER.maxAgeMs);
  }

  private async make({ signature, media }: { signature: string; media: readonly ShareableMedia[] }): Promise<void> {
    const { media: items, clock, logger } = this.options;
    const sent = media.map((item) => ({ track: items.getTrack(item.id), stream: items.getStream(item.id), encoding: this.options.videoEncoding(item) }));
    if (sent.some(({ track, stream }) => !track || !stream)) return;
    const connection = this.options.createConnection();
    if (!connection) return;
    const prepared: Prepared = { signature, connection, madeAt: clock.now(), initiate: undefined };
    this.prepared = prepared;
    try {
      for (const { track, stream, encoding } of sent) {
        prepared.connection.addTransceiver(track!, { direction: 'sendonly', streams: [stream!], ...(encoding ? { sendEncodings: [encoding] } : {}) });
      }
      await prepared.connection.setLocalDescription(await prepared.connection.createOffer());
      this.whenGathered(prepared);
    } catch (error) {
      // Discarded meanwhile (closed under it): nothing went wrong.
      if (this.prepared !== prepared) return;
      logger.error(`an offer made ahead failed: ${errorMessage(error)}`);
      this.discard();
    }
  }

  private whenGathered(prepared: Prepared): void {
    const { connection } = prepared;
    const follow = (): void => {
      if (connection.iceGatheringState !== 'complete') return;
      connection.removeEventListener('icegatheringstatechange', follow);
      const offer = connection.localDescription?.sdp;
      if (this.prepared !== prepared || !offer) return;
      try {
        prepared.initiate = sessionInitiateOf(offer);
      } catch (error) {
        this.options.logger.error(`an offer made ahead could not be written as Jingle: ${errorMessage(error)}`);
        this.discard();
      }
    };
    connection.addEventListener('icegatheringstatechange', follow);
    follow();
  }

  private discard(): void {
    this.prepared?.connection.close();
    this.prepared = undefined;
  }
}
