import type { Clock } from '../../common/clock';
import { TypedEmitter } from '../../common/TypedEmitter';

/** The two ways a stream reaches a peer (DESIGN "Media paths"). */
export type MediaPath = 'mesh' | 'relay';

/**
 * How long a new path must have been connected before the path it replaces is taken down. The
 * receiver shows the new track once it has frames (CallEngine watches for them); this leaves time
 * for the first key frame to arrive and decode, so the old video never stops before the new one runs.
 */
export const HANDOVER_GRACE_MS = 1_500;

export interface PathHandoverEvents {
  /** A path has now been connected for the grace period: what it replaces may go. */
  settled: [path: MediaPath, key: string];
}

/**
 * When each (path, plan key) connected, on the injected clock: a path is *established* once it
 * has stayed connected for HANDOVER_GRACE_MS. Switching mesh → relay ends a mesh session only once
 * its relay consumer is established, and relay → mesh removes a consumer only once the new mesh
 * session is (SPEC §4's switch, without frozen video).
 */
export class PathHandover extends TypedEmitter<PathHandoverEvents> {
  private readonly connections = new Map<string, { settled: boolean; readonly timer: unknown }>();

  constructor(
    private readonly clock: Clock,
    private readonly graceMs = HANDOVER_GRACE_MS,
  ) {
    super();
  }

  /** The path to a key connected (again): its grace starts unless it runs already. */
  connected(path: MediaPath, key: string): void {
    const id = `${path}\n${key}`;
    if (this.connections.has(id)) return;
    // Established when the timer fires, not by comparing clock readings: a timer may fire a
    // millisecond before the wall clock says its delay has passed, and nothing would ask again.
    const entry = {
      settled: false,
      timer: this.clock.setTimeout(() => {
        entry.settled = true;
        this.emit('settled', path, key);
      }, this.graceMs),
    };
    this.connections.set(id, entry);
  }

  /** The path to a key is not connected (any more). */
  lost(path: MediaPath, key: string): void {
    const id = `${path}\n${key}`;
    const entry = this.connections.get(id);
    if (!entry) return;
    this.clock.clearTimeout(entry.timer);
    this.connections.delete(id);
  }

  established(path: MediaPath, key: string): boolean {
    return this.connections.get(`${path}\n${key}`)?.settled === true;
  }

  clear(): void {
    for (const entry of this.connections.values()) this.clock.clearTimeout(entry.timer);
    this.connections.clear();
  }
}
