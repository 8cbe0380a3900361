import type { Clock } from '../../common/clock';

interface Attempt {
  token: number;
  /** Set once the join presence is out: the occupant address it went to. */
  occupant: string | undefined;
  /** The join presence's stanza id. */
  stanzaId: string | undefined;
  timer: unknown;
}

/**
 * The join in progress per room. A newer attempt (password retry, reconnect) supersedes the older,
 * whose late answers (room config, presences) are then ignored; a sent join is bounded by a timer.
 */
export class JoinAttempts {
  private readonly attempts = new Map<string, Attempt>();
  private nextToken = 1;

  constructor(private readonly clock: Clock) {}

  /** Starts an attempt for the room, ending any earlier one; returns its token. */
  begin(roomId: string): number {
    this.end(roomId);
    const token = this.nextToken++;
    this.attempts.set(roomId, { token, occupant: undefined, stanzaId: undefined, timer: undefined });
    return token;
  }

  isCurrent(roomId: string, token: number): boolean {
    return this.attempts.get(roomId)?.token === token;
  }

  /** Records the sent join presence and arms the timeout. */
  sent(roomId: string, token: number, join: { occupant: string; stanzaId: string }, timeoutMs: number, onTimeout: () => void): void {
    const attempt = this.attempts.get(roomId);
    if (attempt?.token !== token) return;
    attempt.occupant = join.occupant;
    attempt.stanzaId = join.stanzaId;
    attempt.timer = this.clock.setTimeout(() => {
      if (this.attempts.get(roomId) !== attempt) return;
      this.attempts.delete(roomId);
      onTimeout();
    }, timeoutMs);
  }

  /** The occupant address of a sent, unanswered join. */
  awaiting(roomId: string): string | undefined {
    return this.attempts.get(roomId)?.occupant;
  }

  /**
   * Whether an error presence answers the sent join: it carries the join's id (or none). A refusal
   * of an earlier presence (say, a call update that crossed a kick) is not the join's answer.
   */
  answersJoin(roomId: string, stanzaId: string | undefined): boolean {
    return this.awaiting(roomId) !== undefined && (stanzaId === undefined || this.carriesJoinId(roomId, stanzaId));
  }

  /** Whether a presence carries the sent join's id: the room reflects it on its answer to that join, and on nothing else. */
  carriesJoinId(roomId: string, stanzaId: string | undefined): boolean {
    const joinId = this.attempts.get(roomId)?.stanzaId;
    return joinId !== undefined && stanzaId === joinId;
  }

  end(roomId: string): void {
    const attempt = this.attempts.get(roomId);
    if (!attempt) return;
    if (attempt.timer !== undefined) this.clock.clearTimeout(attempt.timer);
    this.attempts.delete(roomId);
  }

  endAll(): void {
    for (const roomId of [...this.attempts.keys()]) this.end(roomId);
  }
}
