import { describe, expect, it } from 'vitest';
import { initialSessionState, type ConnectionRecord } from '../../src/protocol/session-state';
import { describeConnectionLoss } from '../../src/ui/connectionLoss';

const at = (time: number) => `t${time}`;
const connection = (change: Partial<ConnectionRecord>): ConnectionRecord => ({ ...initialSessionState().connection, ...change });

describe('Connection loss in plain words: since when, what is being done, and whether "Retry now" is offered (issue 13)', () => {
  it('says nothing while connected', () => {
    expect(describeConnectionLoss(connection({ state: 'connected' }), at)).toBeUndefined();
  });

  it('names the time it was lost and the attempt while waiting for the next one, with Retry now', () => {
    const waiting = connection({ state: 'disconnected', wasConnected: true, disconnectedSince: 42, reconnectAttempts: 3, nextAttemptAt: 50 });
    expect(describeConnectionLoss(waiting, at)).toEqual({ text: 'Connection lost at t42. Reconnecting… (attempt 3)', canRetry: true, canReload: false });
    expect(describeConnectionLoss({ ...waiting, state: 'failed' }, at)).toEqual({ text: 'Connection lost at t42. Reconnecting… (attempt 3)', canRetry: true, canReload: false });
  });

  it('offers no retry while an attempt is running', () => {
    expect(describeConnectionLoss(connection({ state: 'connecting', wasConnected: true, disconnectedSince: 42, reconnectAttempts: 2 }), at)).toEqual({
      text: 'Connection lost at t42. Reconnecting… (attempt 2)',
      canRetry: false,
      canReload: false,
    });
  });

  it('says the browser is offline and that it comes back by itself', () => {
    expect(describeConnectionLoss(connection({ state: 'disconnected', offline: true, disconnectedSince: 42 }), at)?.text).toBe(
      'Offline — we’ll reconnect when you’re back.',
    );
  });

  it('without a scheduled attempt (never connected, or disconnected on purpose) offers Retry now', () => {
    expect(describeConnectionLoss(connection({}), at)).toEqual({ text: 'Not connected.', canRetry: true, canReload: false });
    expect(describeConnectionLoss(connection({ wasConnected: true, disconnectedSince: 7 }), at)).toEqual({ text: 'Connection lost at t7.', canRetry: true, canReload: false });
  });
});

describe('Connection loss in plain words when the session learned more: the chat server is down, or the connection stopped answering (issue 13)', () => {
  it('says the chat server is down and that it reconnects as soon as it is back, with Retry now', () => {
    expect(describeConnectionLoss(connection({ state: 'disconnected', wasConnected: true, disconnectedSince: 42, reconnectAttempts: 3, waitingForServer: true }), at)).toEqual({
      text: 'Connection lost at t42. The chat server is down — we’ll reconnect as soon as it’s back.',
      canRetry: true,
      canReload: false,
    });
  });

  it('says the connection stopped answering when the session gave up a silent one', () => {
    expect(describeConnectionLoss(connection({ state: 'disconnected', wasConnected: true, disconnectedSince: 42, reconnectAttempts: 1, nextAttemptAt: 50, stoppedAnswering: true }), at)).toEqual({
      text: 'The connection stopped answering at t42. Reconnecting… (attempt 1)',
      canRetry: true,
      canReload: false,
    });
  });
});

describe('Connection loss in plain words before any session started: the chat server was not reached, nothing was lost (issue 13: plain words)', () => {
  it('says the chat server cannot be reached and that it tries again, never that a connection was lost', () => {
    const failed = connection({ state: 'failed', disconnectedSince: 42, reconnectAttempts: 3, nextAttemptAt: 50 });
    expect(describeConnectionLoss(failed, at)).toEqual({ text: 'Can’t reach the chat server. Trying again… (attempt 3)', canRetry: true, canReload: false });
    expect(describeConnectionLoss({ ...failed, state: 'connecting', nextAttemptAt: undefined }, at)).toEqual({ text: 'Can’t reach the chat server. Trying again… (attempt 3)', canRetry: false, canReload: false });
    expect(describeConnectionLoss({ ...failed, nextAttemptAt: undefined, waitingForServer: true }, at)?.text).toBe('The chat server is down — we’ll connect as soon as it’s back.');
  });
});

describe('A sign-in the chat server refuses is said as such, with when it is tried again, "Retry now" and "Reload" (issue 13: a refused login is no lost connection)', () => {
  it('says the chat server refuses the sign-in and when the next attempt goes, whether or not a session had started', () => {
    for (const wasConnected of [false, true]) {
      expect(describeConnectionLoss(connection({ state: 'disconnected', wasConnected, loginRefused: true, disconnectedSince: 42, reconnectAttempts: 68, nextAttemptAt: 99 }), at)).toEqual({
        text: 'The chat server refuses to sign you in. We’ll try again at t99. If it goes on, reload the page.',
        canRetry: true,
        canReload: true,
      });
    }
  });

  it('offers no retry while an attempt is running, but still the reload', () => {
    expect(describeConnectionLoss(connection({ state: 'connecting', loginRefused: true, disconnectedSince: 42, reconnectAttempts: 4 }), at)).toEqual({
      text: 'The chat server refuses to sign you in. If it goes on, reload the page.',
      canRetry: false,
      canReload: true,
    });
  });
});
