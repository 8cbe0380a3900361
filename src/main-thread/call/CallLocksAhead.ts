import type { CallLocks } from './CallOwnership';

/** A lock taken ahead: held until it is handed over or given up. */
interface HeldAhead {
  /** Hands the lock to a request's `granted`: it is held for as long as what that returns. */
  handOver(granted: (lock: unknown) => Promise<void> | undefined): void;
  giveUp(): void;
  /** The browser's request of it: settles once it is released, rejects if another tab steals it. */
  request(): Promise<unknown>;
}

/**
 * Call locks that can be taken before the Call that runs with them exists (issue 14, the join
 * path): "Join call" clicked before the call is up in the tab takes the room's call lock as the
 * room's address reaches the page, so that the call is claimed then, not once the call's code has
 * run and its stage is drawn. The Call's own first request for that lock (`ifAvailable`, as
 * CallOwnership asks) is answered with the lock taken ahead, held from then on for as long as the
 * Call holds it; a lock that was not free ahead is asked for again, as if nothing had been taken.
 */
export class CallLocksAhead implements CallLocks {
  private readonly ahead = new Map<string, Promise<HeldAhead | undefined>>();

  constructor(private readonly locks: CallLocks) {}

  /**
   * Takes the lock `name` if it is free; resolves true once held for the next request of it, false
   * when it was not free, or was given up or taken over meanwhile.
   */
  async takeAhead(name: string): Promise<boolean> {
    let taken = this.ahead.get(name);
    if (!taken) {
      taken = new Promise<HeldAhead | undefined>((resolve) => {
        const browser: { request?: Promise<unknown> } = {};
        browser.request = this.locks.request(name, { ifAvailable: true }, (lock) => {
          if (lock === null) {
            resolve(undefined);
            return undefined;
          }
          return new Promise<void>((release) => {
            resolve({
              handOver: (granted) => void Promise.resolve(granted(lock)).then(release, release),
              giveUp: release,
              request: () => browser.request ?? Promise.resolve(),
            });
          });
        });
        // Not taken ahead: the Call asks for it itself.
        browser.request.catch(() => resolve(undefined));
      });
      this.ahead.set(name, taken);
    }
    const held = await taken;
    return held !== undefined && this.ahead.get(name) === taken;
  }

  /** Lets go of the lock `name` taken ahead, if no request has taken it over. */
  giveUpAhead(name: string): void {
    const taken = this.ahead.get(name);
    this.ahead.delete(name);
    void taken?.then((held) => held?.giveUp());
  }

  /** Lets go of every lock taken ahead that no request has taken over (the session's worker is gone). */
  giveUpAll(): void {
    for (const name of [...this.ahead.keys()]) this.giveUpAhead(name);
  }

  request(name: string, options: Parameters<CallLocks['request']>[1], granted: (lock: unknown) => Promise<void> | undefined): Promise<unknown> {
    const taken = this.ahead.get(name);
    if (!taken || !options.ifAvailable) return this.locks.request(name, options, granted);
    this.ahead.delete(name);
    return taken.then((held) => {
      if (!held) return this.locks.request(name, options, granted);
      held.handOver(granted);
      // As the browser's own request would: settled with the lock, rejected if it is stolen.
      return held.request();
    });
  }
}
