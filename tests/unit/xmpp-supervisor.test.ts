import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RestartBackoff } from '../../server/supervision/RestartBackoff';
import { XmppSupervisor } from '../../server/supervision/XmppSupervisor';
import type { XmppServer } from '../../server/xmpp/XmppServer';

/**
 * A fake XMPP server: only its life (kill, stop, exit) matters here, and a real crash is what
 * tests/integration/supervision.test.ts does to a real Prosody. The fake lets the test end a server
 * at exactly the moment the supervisor is replacing it.
 */
class FakeXmppServer implements XmppServer {
  readonly websocketUrl = 'ws://127.0.0.1:1/xmpp-websocket';
  readonly httpPort = 1;
  readonly domain = 'parley.localhost';
  readonly mucDomain = 'rooms.parley.localhost';
  exitStatus: string | undefined;
  readonly exited: Promise<void>;
  private exit!: () => void;

  constructor(readonly name: string) {
    this.exited = new Promise((resolve) => (this.exit = resolve));
  }

  get pid(): number | undefined {
    return this.exitStatus === undefined ? 1 : undefined;
  }

  async stats() {
    return { clientSessions: 0, rooms: {} };
  }

  async kill(): Promise<void> {
    this.exitStatus ??= 'signal SIGKILL';
    this.exit();
  }

  async stop(): Promise<void> {
    await this.kill();
  }
}

describe('Supervision: the XMPP server is restarted once per death, never twice (issue 13)', () => {
  let started: FakeXmppServer[];
  let supervisor: XmppSupervisor;
  const logs: string[] = [];

  /** A supervisor of a first fake server whose restarts run `startServer`, logging to `logs`, with a 250 ms first backoff. */
  function supervising(startServer: () => Promise<XmppServer>): XmppSupervisor {
    return new XmppSupervisor(new FakeXmppServer('first'), startServer, (line) => logs.push(line), new RestartBackoff({ firstDelayMs: 250, maxDelayMs: 1_000, stableAfterMs: 60_000 }, () => Date.now()));
  }

  beforeEach(() => {
    vi.useFakeTimers();
    logs.length = 0;
    started = [];
    const startServer = async (): Promise<XmppServer> => {
      const server = new FakeXmppServer(`restart ${started.length + 1}`);
      started.push(server);
      return server;
    };
    supervisor = supervising(startServer);
  });

  afterEach(async () => {
    await supervisor.stop();
    vi.useRealTimers();
  });

  it('a restart asked for ends the running server and starts exactly one new one', async () => {
    await supervisor.restart();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(started.map((server) => server.name)).toEqual(['restart 1']);
    expect(supervisor.server).toBe(started[0]);
    expect(started[0]?.exitStatus).toBeUndefined();
  });

  it('a restart asked for while the supervisor’s own is starting a server waits for it: never two starts at once (they would race for one port)', async () => {
    let starting = 0;
    let mostAtOnce = 0;
    const slowStarts: FakeXmppServer[] = [];
    const slow = supervising(async () => {
        starting += 1;
        mostAtOnce = Math.max(mostAtOnce, starting);
        await new Promise((started) => setTimeout(started, 1_000));
        starting -= 1;
        const server = new FakeXmppServer(`slow restart ${slowStarts.length + 1}`);
        slowStarts.push(server);
        return server;
    });
    await slow.server.kill();
    await vi.advanceTimersByTimeAsync(500);
    const restarted = slow.restart();
    await vi.advanceTimersByTimeAsync(5_000);
    await restarted;

    expect(mostAtOnce).toBe(1);
    expect(slowStarts.map((server) => server.name)).toEqual(['slow restart 1', 'slow restart 2']);
    expect(slowStarts[0]?.exitStatus).toBe('signal SIGKILL');
    expect(slow.server).toBe(slowStarts[1]);
    await slow.stop();
  });

  it('a restart asked for whose start fails is tried again after the backoff, as after a crash, and resolves once a server is up', async () => {
    const attempts: string[] = [];
    const flaky = supervising(async () => {
        attempts.push(`start ${attempts.length + 1}`);
        if (attempts.length === 1) throw new Error('Prosody did not answer on 127.0.0.1:1 within 10000 ms\n--- Prosody output ---\nstarted');
        return new FakeXmppServer('second start');
    });
    await flaky.holdDown();
    let restarted = false;
    const restart = flaky.restart().then(() => (restarted = true));
    await vi.advanceTimersByTimeAsync(100);
    expect(restarted).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    await restart;

    expect(attempts).toEqual(['start 1', 'start 2']);
    expect((flaky.server as FakeXmppServer).name).toBe('second start');
    expect(logs).toContain('xmpp: the XMPP server did not start: Prosody did not answer on 127.0.0.1:1 within 10000 ms; restarting it in 250 ms (restart 1 in a row)');
    await flaky.stop();
  });

  it('stopped while a restart asked for waits out its backoff, it ends the wait at once: nothing more is started', async () => {
    const attempts: string[] = [];
    const failing = supervising(async () => {
        attempts.push(`start ${attempts.length + 1}`);
        throw new Error('Prosody did not answer on 127.0.0.1:1 within 10000 ms');
    });
    await failing.holdDown();
    const restart = failing.restart();
    const outcome = restart.then(
      () => 'resolved',
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    await vi.advanceTimersByTimeAsync(100);
    await failing.stop();
    // No timer is advanced: the wait ended with stop(), not with its delay.
    expect(await outcome).toBe('Prosody did not answer on 127.0.0.1:1 within 10000 ms');
    await vi.advanceTimersByTimeAsync(5_000);
    expect(attempts).toEqual(['start 1']);
  });

  it('a server that dies by itself is replaced once, after the backoff, with one log line', async () => {
    await supervisor.server.kill();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(started.map((server) => server.name)).toEqual(['restart 1']);
    expect(logs.filter((line) => line.startsWith('xmpp: the XMPP server exited (signal SIGKILL); restarting it in 250 ms'))).toHaveLength(1);
  });
});
