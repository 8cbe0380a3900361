import type { CDPSession } from '@playwright/test';

/**
 * A worker attached over the browser's DevTools session with the non-flattened protocol: commands
 * to it and its answers go through Target messages, matched by id. Benchmarks read shared workers'
 * probes with it; tests pause a session worker in its debugger.
 */
export class AttachedWorker {
  private nextId = 1;
  private readonly pending = new Map<number, (answer: { result?: unknown }) => void>();

  private constructor(
    private readonly browserSession: CDPSession,
    private readonly sessionId: string,
  ) {
    browserSession.on('Target.receivedMessageFromTarget', (event) => {
      if (event.sessionId !== this.sessionId) return;
      const answer = JSON.parse(event.message) as { id?: number; result?: unknown };
      if (answer.id === undefined) return;
      this.pending.get(answer.id)?.(answer);
      this.pending.delete(answer.id);
    });
  }

  static async attach(browserSession: CDPSession, targetId: string): Promise<AttachedWorker> {
    const { sessionId } = await browserSession.send('Target.attachToTarget', { targetId, flatten: false });
    return new AttachedWorker(browserSession, sessionId);
  }

  /** Sends a DevTools command to the worker; resolves with its result once the worker answers. */
  async send<T = unknown>(method: string, params?: object): Promise<T> {
    const id = this.nextId++;
    const answered = new Promise<{ result?: unknown }>((resolve) => this.pending.set(id, resolve));
    await this.browserSession.send('Target.sendMessageToTarget', { sessionId: this.sessionId, message: JSON.stringify({ id, method, params }) });
    return (await answered).result as T;
  }

  /** Evaluates `expression` in the worker; resolves with its value (by value). */
  async evaluate<T>(expression: string): Promise<T> {
    const result = await this.send<{ result?: { value?: T } }>('Runtime.evaluate', { expression, returnByValue: true });
    return result?.result?.value as T;
  }
}
