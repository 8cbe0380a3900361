import type { XmppServer } from '../xmpp/XmppServer';
import { systemClock } from '../../src/common/clock';
import { RestartBackoff } from './RestartBackoff';
import { XMPP_READINESS_DEFAULTS, XmppReadiness } from './XmppReadiness';

/**
 * Keeps the XMPP server running for `npm start`'s process: when it dies, it is started again (on
 * the same port unless that was taken meanwhile; the gateway proxies to `server`), after a bounded backoff, with one log line per
 * restart. Fault injection can hold it down (`holdDown`) until `restart`. It says when the server is
 * up (`readiness`): from the moment a new one accepts connections until the current one exits.
 */
export class XmppSupervisor {
  private current: XmppServer;
  /** Held down by fault injection: no restart until `restart`. */
  private held = false;
  private stopped = false;
  /** The backoff wait before the next start, if one runs: `cancelRestart` ends it early. */
  private backoffWait: { timer: NodeJS.Timeout; end: () => void } | undefined;
  /** The replacements and kills under way, one at a time: two starts at once would race for one port. */
  private operations: Promise<void> = Promise.resolve();
  /** Servers we ended ourselves to replace them: their exit is not a crash to restart from. */
  private readonly replaced = new WeakSet<XmppServer>();

  constructor(
    first: XmppServer,
    /** Starts a new server, where the last one was if it can. */
    private readonly startServer: () => Promise<XmppServer>,
    private readonly log: (line: string) => void,
    private readonly backoff = new RestartBackoff(),
    readonly readiness = new XmppReadiness(systemClock, XMPP_READINESS_DEFAULTS),
  ) {
    this.current = first;
    this.watch(first);
  }

  get server(): XmppServer {
    return this.current;
  }

  /** Kills the server as a crash would and keeps it down until `restart`. */
  async holdDown(): Promise<void> {
    this.held = true;
    this.cancelRestart();
    await this.inTurn(() => this.current.kill());
  }

  /**
   * Starts the server again now (after `holdDown`, or killing a running one first). A start that
   * fails is tried again after the backoff, as after a crash; resolves once a server is up.
   */
  async restart(): Promise<void> {
    this.held = false;
    this.cancelRestart();
    await this.startUntilUp();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelRestart();
    this.readiness.markDown();
    this.readiness.close();
    await this.inTurn(() => this.current.stop());
  }

  private watch(server: XmppServer): void {
    void server.exited.then(() => {
      if (server === this.current) this.readiness.markDown();
      if (server !== this.current || this.replaced.has(server) || this.stopped || this.held) return;
      void this.restartAfterCrash(`exited (${server.exitStatus ?? 'unknown'})`);
    });
  }

  private async restartAfterCrash(why: string): Promise<void> {
    if (!(await this.waitBackoff(why))) return;
    // Given up only when stopped, held down, or a restart asked for took over: each says so itself.
    await this.startUntilUp().catch(() => undefined);
  }

  /**
   * Starts a new server, and while that fails tries again after the backoff; rejects with the last
   * start's error once it stops trying (stopped, held down, or its wait cancelled by a restart asked for).
   */
  private async startUntilUp(): Promise<void> {
    for (;;) {
      try {
        await this.inTurn(() => this.replace());
        return;
      } catch (error) {
        if (this.stopped || this.held || !(await this.waitBackoff(`did not start: ${firstLine(error)}`))) throw error;
      }
    }
  }

  /** Waits the backoff's next delay, said in one log line; false when `cancelRestart` (or a newer wait) ended the wait. */
  private waitBackoff(why: string): Promise<boolean> {
    this.cancelRestart();
    const delay = this.announceRestart(why);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.backoffWait = undefined;
        resolve(true);
      }, delay);
      this.backoffWait = { timer, end: () => resolve(false) };
    });
  }

  /** The delay before the next start, said in one log line. */
  private announceRestart(why: string): number {
    const delay = this.backoff.nextDelayMs();
    this.log(`xmpp: the XMPP server ${why}; restarting it in ${delay} ms (restart ${this.backoff.count} in a row)`);
    return delay;
  }

  /** Stops what is left of the current server (its runtime folder) and starts a new one. */
  private async replace(): Promise<void> {
    const previous = this.current;
    this.replaced.add(previous);
    this.readiness.markDown();
    await previous.kill();
    await previous.stop();
    if (this.stopped) return;
    const next = await this.startServer();
    if (this.stopped) {
      await next.stop();
      return;
    }
    this.current = next;
    this.watch(next);
    this.readiness.markUp();
  }

  /** Runs `operation` once those asked for before it have settled (a restart asked for during the supervisor's own waits for it). */
  private inTurn(operation: () => Promise<void>): Promise<void> {
    const turn = this.operations.then(operation);
    this.operations = turn.catch(() => undefined);
    return turn;
  }

  private cancelRestart(): void {
    const wait = this.backoffWait;
    this.backoffWait = undefined;
    if (!wait) return;
    clearTimeout(wait.timer);
    wait.end();
  }
}

/** A start error's first line (the rest is the server's log). */
function firstLine(error: unknown): string {
  return error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
}
