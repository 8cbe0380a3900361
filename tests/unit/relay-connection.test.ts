import { EventEmitter } from 'node:events';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { RelayConnection } from '../../server/relay/RelayConnection';
import type { RelaySession } from '../../server/relay/RelaySession';
import { RELAY_ERROR, RELAY_LIMITS, type RelayResponse } from '../../src/protocol/relay';

/** The websocket as RelayConnection uses it: frames in as 'message', answers kept. */
class FakeSocket extends EventEmitter {
  readyState: number = WebSocket.OPEN;
  bufferedAmount = 0;
  readonly answers: RelayResponse[] = [];

  send(text: string): void {
    this.answers.push(JSON.parse(text) as RelayResponse);
  }

  close(): void {
    this.readyState = WebSocket.CLOSED;
    this.emit('close', 1000);
  }

  terminate(): void {
    this.close();
  }

  ping(): void {}

  request(id: number, method: string, params: Record<string, unknown> = {}): void {
    this.emit('message', Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params })));
  }
}

/** A session whose every call waits until `finish()`: what its connection queues meanwhile waits too. */
function stalledSession(): { session: RelaySession; hooks: { send?: (answer: RelayResponse) => void }; finish: () => void } {
  let finish = (): void => undefined;
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const hooks: { send?: (answer: RelayResponse) => void } = {};
  const session = {
    resumeId: undefined,
    serve: async (_id: unknown, respond: () => Promise<RelayResponse>) => hooks.send!(await respond()),
    call: async () => {
      await finished;
      return {};
    },
  };
  return { session: session as unknown as RelaySession, hooks, finish };
}

const sockets: FakeSocket[] = [];
afterEach(() => {
  for (const socket of sockets.splice(0)) socket.close();
});

/** An authenticated connection on `socket` whose session stalls every call; its rate bucket refills fully between requests. */
async function stalledConnection(socket: FakeSocket): Promise<{ finish: () => void }> {
  sockets.push(socket);
  const stalled = stalledSession();
  let clock = 0;
  new RelayConnection(socket as unknown as WebSocket, {
    limits: RELAY_LIMITS,
    now: () => (clock += 1_000_000),
    authenticate: () => 'alice',
    openSession: (_user, hooks) => {
      stalled.hooks.send = hooks.send;
      return stalled.session;
    },
    resumeSession: () => {
      throw new Error('not resumed here');
    },
    releaseSession: () => undefined,
    log: () => undefined,
  });
  socket.request(0, 'AUTH', { token: 't' });
  await yieldToEventLoop();
  expect(socket.answers.splice(0)).toEqual([{ jsonrpc: '2.0', id: 0, result: { user: 'alice' } }]);
  return stalled;
}

describe('A relay connection holds at most requestBurst requests waiting for their answers; more are answered rateLimited at once', () => {
  it('with requestBurst requests waiting behind a slow one, the next is refused rateLimited, within the request rate; the waiting ones are answered in turn', async () => {
    const socket = new FakeSocket();
    const { finish } = await stalledConnection(socket);
    const burst = RELAY_LIMITS.requestBurst;

    for (let id = 1; id <= burst + 3; id++) socket.request(id, 'PING');
    await yieldToEventLoop();
    expect(socket.answers.map((answer) => answer.id)).toEqual([burst + 1, burst + 2, burst + 3]);
    expect(socket.answers[0]).toEqual({
      jsonrpc: '2.0',
      id: burst + 1,
      error: { code: RELAY_ERROR.rateLimited, message: `too many requests waiting for their answers: at most ${burst}` },
    });

    finish();
    await yieldToEventLoop();
    expect(socket.answers.slice(3).map((answer) => answer.id)).toEqual(Array.from({ length: burst }, (_, index) => index + 1));

    socket.request(burst + 4, 'PING');
    await yieldToEventLoop();
    expect(socket.answers.at(-1)).toEqual({ jsonrpc: '2.0', id: burst + 4, result: {} });
  });
});
