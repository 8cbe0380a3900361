import type { Clock } from '../../common/clock';

/**
 * Occupant addresses we sent "unavailable" to whose room has not answered yet. Until the answer,
 * what the room sends from that address (our old self-presence, the unavailable echo) belongs to
 * the stay we ended, not to a new join of the same room under the same nick that crossed it
 * ("Leave", then Back): read as the new join's answer, it joined and then removed the room at once.
 * A room that never answers is forgotten after the join timeout.
 */
export class DepartingOccupants {
  private readonly departing = new Map<string, unknown>();

  constructor(
    private readonly clock: Clock,
    private readonly answerWithinMs: number,
  ) {}

  add(occupant: string): void {
    this.remove(occupant);
    this.departing.set(
      occupant,
      this.clock.setTimeout(() => this.departing.delete(occupant), this.answerWithinMs),
    );
  }

  /**
   * Whether a presence from `occupant` belongs to a stay we left: it is then to be ignored. The
   * room's answer to the leave (unavailable, or an error to a join it never took) ends the wait. So
   * does its answer to a join sent since (`answersNewJoin`: it carries that join's id), which is the
   * new join's: the room answers our stanzas in order, so nothing of the old stay comes after it. A
   * room that never had the old stay (its join timed out unanswered) sends nothing for the leave,
   * and a join retried at once would otherwise have its answer taken for the old stay's.
   */
  absorbs(occupant: string, type: string | undefined, answersNewJoin: boolean): boolean {
    if (!this.departing.has(occupant)) return false;
    if (answersNewJoin || type === 'unavailable' || type === 'error') this.remove(occupant);
    return !answersNewJoin;
  }

  /** The connection is gone: no answer will come. */
  clear(): void {
    for (const occupant of [...this.departing.keys()]) this.remove(occupant);
  }

  private remove(occupant: string): void {
    const timer = this.departing.get(occupant);
    if (timer === undefined) return;
    this.clock.clearTimeout(timer);
    this.departing.delete(occupant);
  }
}
