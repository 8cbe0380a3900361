import type { CDPSession, Page } from '@playwright/test';

/**
 * A worker attached over the browser's DevTools session with the non-flattened protocol: commands
 * to it and its answers go through Target messages, matched by id. Benchmarks read shared workers'
 * probes with it; tests pause a session worker in its debugger and end it.
 */
export class AttachedWorker {
  private nextId = 1;
  private readonly pending = new Map<number, (answer: { result?: unknown }) => void>();

  private constructor(
    private readonly browserSession: CDPSession,
    private readonly targetId: string,
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
    return new AttachedWorker(browserSession, targetId, sessionId);
  }

  /** Ends the worker as the browser's own DevTools do ("terminate"), even paused; resolves once the browser lists it no more. */
  async terminate(): Promise<void> {
    await this.browserSession.send('Target.closeTarget', { targetId: this.targetId });
    for (let asked = 0; asked < 100; asked += 1) {
      const { targetInfos } = await this.browserSession.send('Target.getTargets');
      if (!targetInfos.some((target) => target.targetId === this.targetId)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the worker did not end within 5 s of its termination');
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

/** The person's shared worker (their session), attached over the browser's DevTools session until `detach`. */
export async function attachSessionWorker(page: Page): Promise<{ worker: AttachedWorker; detach(): Promise<void> }> {
  const pageSession = await page.context().newCDPSession(page);
  const { targetInfo: pageTarget } = await pageSession.send('Target.getTargetInfo');
  await pageSession.detach();
  const browserSession = await page.context().browser()!.newBrowserCDPSession();
  const { targetInfos } = await browserSession.send('Target.getTargets');
  const worker = targetInfos.find((target) => target.type === 'shared_worker' && target.browserContextId === pageTarget.browserContextId);
  if (!worker) throw new Error('the person has no shared worker');
  return { worker: await AttachedWorker.attach(browserSession, worker.targetId), detach: () => browserSession.detach() };
}
