/** One planned (peer, stream) delivery as the path choice needs it. */
export interface PlannedDelivery {
  /** The plan key (sessionPlan's peer + stream). */
  readonly key: string;
  readonly streamKey: string;
}

export interface PathPlanInput {
  readonly planned: readonly PlannedDelivery[];
  /** The relay can carry this stream now: wanted, connected, and its ingest connected. */
  readonly relayReady: (streamKey: string) => boolean;
  /** The relay is wanted and on its way to carrying this stream (connecting, ingesting), with no outage. */
  readonly relayPending: (streamKey: string) => boolean;
  /** The relay failed this delivery's receiver lately (its consumer refused, or failing again and again): the mesh carries it until the relay is tried again. */
  readonly relayFailed: (key: string) => boolean;
  /** A relay consumer exists for this key (made on a connection that may since have died). */
  readonly relayExists: (key: string) => boolean;
  readonly relayEstablished: (key: string) => boolean;
  /** A mesh session runs (or starts) for this key. */
  readonly meshExists: (key: string) => boolean;
  readonly meshEstablished: (key: string) => boolean;
}

/** The plan keys each path must carry now; a key in both is being handed over. */
export interface PathPlan {
  readonly mesh: ReadonlySet<string>;
  readonly relay: ReadonlySet<string>;
}

/**
 * Which path carries each planned delivery (DESIGN "Media paths"). The target is the relay while
 * it can carry the stream, else the mesh; the path being left keeps running until the target is
 * established (PathHandover), so the receiver always has a running track:
 * - mesh → relay: the consumer is made; a running mesh session stays until the consumer is
 *   established, and none is started for a delivery the relay can carry from the outset (a newcomer
 *   to a call on the relay would otherwise get every stream twice while joining), nor while the
 *   relay is still on its way to carrying the stream (a newcomer publishes straight to the relay);
 * - relay → mesh (switched off, the relay is down, or it failed this receiver): the mesh session
 *   is made; an existing consumer stays until the mesh session is established.
 * Keys no longer planned are on neither path: their sessions and consumers end at once.
 */
export function planPaths(input: PathPlanInput): PathPlan {
  const mesh = new Set<string>();
  const relay = new Set<string>();
  for (const { key, streamKey } of input.planned) {
    const relayServes = !input.relayFailed(key);
    if (relayServes && input.relayReady(streamKey)) {
      relay.add(key);
      if (!input.relayEstablished(key) && input.meshExists(key)) mesh.add(key);
    } else if (relayServes && input.relayPending(streamKey) && !input.meshExists(key)) {
      if (input.relayExists(key)) relay.add(key);
    } else {
      mesh.add(key);
      if (input.relayExists(key) && !input.meshEstablished(key)) relay.add(key);
    }
  }
  return { mesh, relay };
}
