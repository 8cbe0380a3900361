import type { Clock } from '../../shared-worker/clock';
import { TypedEmitter } from '../media';

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
  private readonly connectedAt = new Map<string, { readonly at: number; readonly timer: unknown }>();

  constructor(
    private readonly clock: Clock,
    private readonly graceMs = HANDOVER_GRACE_MS,
  ) {
    super();
  }

  /** The path to a key connected (again): its grace starts unless it runs already. */
  connected(path: MediaPath, key: string): void {
    const id = `${path}\n${key}`;
    if (this.connectedAt.has(id)) return;
    const timer = this.clock.setTimeout(() => this.emit('settled', path, key), this.graceMs);
    this.connectedAt.set(id, { at: this.clock.now(), timer });
  }

  /** The path to a key is not connected (any more). */
  lost(path: MediaPath, key: string): void {
    const id = `${path}\n${key}`;
    const entry = this.connectedAt.get(id);
    if (!entry) return;
    this.clock.clearTimeout(entry.timer);
    this.connectedAt.delete(id);
  }

  established(path: MediaPath, key: string): boolean {
    const entry = this.connectedAt.get(`${path}\n${key}`);
    return entry !== undefined && this.clock.now() - entry.at >= this.graceMs;
  }

  clear(): void {
    for (const entry of this.connectedAt.values()) this.clock.clearTimeout(entry.timer);
    this.connectedAt.clear();
  }
}
