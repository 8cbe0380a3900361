import type { ConsumerProfile } from '../../../protocol/relay';
import type { Delivery } from '../MediaPath';
import type { ShareableMedia } from '../sessionPlan';
import { OperationQueue } from '../../../common/OperationQueue';
import type { MediaKind } from '../../media';
import type { RelayJingleSession } from './RelayJingleSession';
import type { RelayRpcClient } from './RelayRpcClient';

/**
 * One relay consumer as the sender tracks it: the CREATE_CONSUMER id (also its Jingle sid), the
 * Jingle session that carries the relay's offer to the receiver, the connection the consumer
 * lives on, and an ordered queue so that its steps (create, start, profile, restart, mute) never
 * interleave; a step the relay could not do just then (rate limited, timed out) is asked again later.
 */
export class RelayConsumer {
  readonly queue = new OperationQueue();
  session: RelayJingleSession | undefined;
  /** The receiver's last quality request: a re-made consumer starts with it. */
  profile: ConsumerProfile | undefined;
  /** Its connection closed: the relay side is gone, and the Jingle session only waits for the mesh to take over. */
  dead = false;
  /** We end the session ourselves: its end is neither the receiver's doing nor a failure. */
  ending = false;
  /** The session is being replaced after a failure (CREATE_CONSUMER again for the same id). */
  restarting = false;
  /** Per step that failed while the consumer kept working (RelayPath.runKept): its failures in a row, and the timer that asks again. */
  readonly retries = new Map<string, { readonly failures: number; readonly timer: unknown }>();

  constructor(
    readonly sid: string,
    public delivery: Delivery,
    /** The stream id CREATE_CONSUMER names as `source`. */
    readonly source: string,
    readonly rpc: RelayRpcClient,
  ) {}

  get key(): string {
    return this.delivery.key;
  }

  sentOf(kind: MediaKind): ShareableMedia | undefined {
    return this.delivery.media.find((item) => item.kind === kind);
  }
}
