import type { ConnectionRecord } from '../protocol/session-state';

/** What a person is told while the session has no connection, and whether "Retry now" and "Reload" make sense. */
export interface ConnectionLossText {
  text: string;
  canRetry: boolean;
  /** What the session cannot mend by itself (the chat server refuses the sign-in): a reload starts anew. */
  canReload: boolean;
}

/** The connection was lost, or its first attempt failed: what comes next is a reconnect. */
export function connectionTried(connection: ConnectionRecord): boolean {
  return connection.disconnectedSince !== undefined || connection.reconnectAttempts > 0;
}

/**
 * No connection, past its first attempt (or the browser is offline): whatever waits for it — joining
 * a room — has a reason to say, where a first connection's brief wait has none.
 */
export function connectionDown(connection: ConnectionRecord): boolean {
  return connection.state !== 'connected' && (connection.offline || connectionTried(connection));
}

/**
 * The connection's state in plain words, with when it was lost and how far reconnecting is
 * (undefined while connected). `formatTime` renders a time as people read it ("10:42"). Only a
 * session that had started can be lost: before one, the chat server was not reached yet.
 */
export function describeConnectionLoss(connection: ConnectionRecord, formatTime: (time: number) => string): ConnectionLossText | undefined {
  if (connection.state === 'connected') return undefined;
  const attemptRunning = connection.state === 'connecting';
  if (connection.offline) return { text: 'Offline — we’ll reconnect when you’re back.', canRetry: true, canReload: false };
  if (connection.loginRefused) {
    const next = connection.nextAttemptAt !== undefined ? ` We’ll try again at ${formatTime(connection.nextAttemptAt)}.` : '';
    return { text: `The chat server refuses to sign you in.${next} If it goes on, reload the page.`, canRetry: !attemptRunning, canReload: true };
  }
  const since = connection.disconnectedSince !== undefined ? ` at ${formatTime(connection.disconnectedSince)}` : '';
  const attempt = connection.reconnectAttempts > 0 ? ` (attempt ${connection.reconnectAttempts})` : '';
  const again = connection.wasConnected ? 'Reconnecting…' : 'Trying again…';
  // A network that went dead without an offline event: the session noticed the silence itself.
  const lost = !connection.wasConnected ? 'Can’t reach the chat server.' : connection.stoppedAnswering ? `The connection stopped answering${since}.` : `Connection lost${since}.`;
  if (attemptRunning) return { text: `${lost} ${again}${attempt}`, canRetry: false, canReload: false };
  if (connection.waitingForServer) {
    const down = connection.wasConnected ? `${lost} The chat server is down — we’ll reconnect as soon as it’s back.` : 'The chat server is down — we’ll connect as soon as it’s back.';
    return { text: down, canRetry: true, canReload: false };
  }
  if (connection.nextAttemptAt === undefined) {
    // Nothing scheduled: a deliberate disconnect, or not started yet.
    return { text: connection.disconnectedSince !== undefined ? lost : 'Not connected.', canRetry: true, canReload: false };
  }
  return { text: `${lost} ${again}${attempt}`, canRetry: true, canReload: false };
}
