import { describe, expect, it } from 'vitest';
import { initialSessionState, type ConnectionRecord } from '../../src/protocol/session-state';
import { connectionWords } from '../../src/ui/connectionWords';

const connection = (change: Partial<ConnectionRecord>): ConnectionRecord => ({ ...initialSessionState().connection, ...change });

describe('The connection in plain words: "Connected", "Reconnecting… (attempt n)", "Offline — we’ll reconnect when you’re back" (issue 15)', () => {
  it('says "Connected" while the session is up', () => {
    expect(connectionWords(connection({ state: 'connected' }))).toEqual({ text: 'Connected', tone: 'ok' });
  });

  it('says "Connecting…" on the first attempt, and "Reconnecting…" with the attempt once a connection was lost', () => {
    expect(connectionWords(connection({ state: 'connecting' }))).toEqual({ text: 'Connecting…', tone: 'working' });
    expect(connectionWords(connection({ state: 'connecting', wasConnected: true, disconnectedSince: 42 }))).toEqual({ text: 'Reconnecting…', tone: 'working' });
    expect(connectionWords(connection({ state: 'connecting', wasConnected: true, disconnectedSince: 42, reconnectAttempts: 3 }))).toEqual({ text: 'Reconnecting… (attempt 3)', tone: 'working' });
  });

  it('says "Connecting…" with the attempt while no session has started yet: nothing was lost to reconnect', () => {
    expect(connectionWords(connection({ state: 'connecting', disconnectedSince: 42, reconnectAttempts: 3 }))).toEqual({ text: 'Connecting… (attempt 3)', tone: 'working' });
    expect(connectionWords(connection({ state: 'failed', disconnectedSince: 42, reconnectAttempts: 3, nextAttemptAt: 50 })).text).toBe('Connecting… (attempt 3)');
  });

  it('says "Reconnecting…" while a failed or lost connection waits for its next attempt', () => {
    expect(connectionWords(connection({ state: 'failed', wasConnected: true, disconnectedSince: 42, reconnectAttempts: 2, nextAttemptAt: 50 })).text).toBe('Reconnecting… (attempt 2)');
    expect(connectionWords(connection({ state: 'disconnected', wasConnected: true, disconnectedSince: 42, nextAttemptAt: 50 })).text).toBe('Reconnecting…');
  });

  it('says it waits for the chat server while the reconnect waits for the gateway to say the server is back (issue 13)', () => {
    expect(connectionWords(connection({ state: 'disconnected', disconnectedSince: 42, reconnectAttempts: 3, waitingForServer: true }))).toEqual({ text: 'Waiting for the chat server…', tone: 'working' });
  });

  it('says the browser is offline and that it will reconnect on its own', () => {
    expect(connectionWords(connection({ state: 'disconnected', offline: true, disconnectedSince: 42 }))).toEqual({ text: 'Offline — we’ll reconnect when you’re back', tone: 'offline' });
  });

  it('says the chat server refuses the sign-in rather than reconnecting, for a login it keeps refusing', () => {
    expect(connectionWords(connection({ state: 'disconnected', wasConnected: true, loginRefused: true, disconnectedSince: 42, reconnectAttempts: 68, nextAttemptAt: 99 }))).toEqual({
      text: 'The chat server refuses the sign-in',
      tone: 'down',
    });
  });

  it('says "Not connected" when no attempt is scheduled', () => {
    expect(connectionWords(connection({ state: 'disconnected' }))).toEqual({ text: 'Not connected', tone: 'down' });
  });
});
