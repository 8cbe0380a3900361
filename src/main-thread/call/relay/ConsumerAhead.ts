import type { Logger } from '../../../common/logger';
import { errorMessage } from '../../../common/errorMessage';
import type { CreateConsumerParams } from '../../../protocol/relay';
import { relayOfferToJingle, type RelayOfferJingle } from './relayJingle';
import type { RelayRpcClient } from './RelayRpcClient';

/** CREATE_CONSUMER's params but the ids: what a consumer of one stream asks of the relay. */
export type ConsumerSource = Omit<CreateConsumerParams, 'id' | 'peerId'>;

/**
 * The next receiver's consumer of one stream, made on the relay before anyone needs it
 * (CREATE_CONSUMER without peerId), its offer already in Jingle form (issue 14, the join path).
 * Traced in relay joins, a sender read CREATE_CONSUMER's answer 47–94 ms after asking, as the
 * newcomer's arrival came: the relay's part is a few ms, the rest is the busy page reading it.
 * Taken for a delivery, the consumer only needs its receiver named (CLAIM_CONSUMER), which the
 * session-initiate need not wait for: the relay runs a connection's requests in order, so the
 * claim is there before START_CONSUMER.
 */
export class ConsumerAhead {
  readonly sid = crypto.randomUUID();
  /** The relay's offer as a session-initiate's contents; undefined when the relay did not make it. */
  readonly offer: Promise<RelayOfferJingle | undefined>;

  constructor(
    readonly rpc: RelayRpcClient,
    readonly source: ConsumerSource,
    /** The stream's media items it was made for (sorted ids): a kind dropped and shared again is another producer. */
    private readonly items: string,
    private readonly logger: Logger,
  ) {
    this.offer = rpc.request('CREATE_CONSUMER', { id: this.sid, ...source }).then(
      ({ sdp }) => relayOfferToJingle(sdp),
      (error: unknown) => {
        logger.info(`relay consumer not made ahead: ${errorMessage(error)}`);
        return undefined;
      },
    );
  }

  /** It consumes the same stream's same items, in the same room, on the same connection. */
  fits(rpc: RelayRpcClient, source: ConsumerSource, items: string): boolean {
    return this.rpc === rpc && this.items === items && (Object.keys(source) as (keyof ConsumerSource)[]).every((key) => this.source[key] === source[key]);
  }

  /** Not needed after all: the relay lets it go (nothing to do once its connection has closed). */
  discard(): void {
    if (!this.rpc.isOpen) return;
    this.rpc.request('REMOVE_CONSUMER', { id: this.sid }).catch((error: unknown) => this.logger.info(`REMOVE_CONSUMER ${this.sid}: ${errorMessage(error)}`));
  }
}
