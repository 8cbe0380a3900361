import type { ConnectionRecord } from '../protocol/session-state';

/** What a person is told while the session has no connection, and whether "Retry now" makes sense. */
export interface ConnectionLossText {
  text: string;
  canRetry: boolean;
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
 * (undefined while connected). `formatTime` renders a time as people read it ("10:42").
 */
export function describeConnectionLoss(connection: ConnectionRecord, formatTime: (time: number) => string): ConnectionLossText | undefined {
  if (connection.state === 'connected') return undefined;
  if (connection.offline) return { text: 'Offline — we’ll reconnect when you’re back.', canRetry: true };
  const since = connection.disconnectedSince !== undefined ? ` at ${formatTime(connection.disconnectedSince)}` : '';
  const attempt = connection.reconnectAttempts > 0 ? ` (attempt ${connection.reconnectAttempts})` : '';
  // A network that went dead without an offline event: the session noticed the silence itself.
  const lost = connection.stoppedAnswering ? `The connection stopped answering${since}.` : `Connection lost${since}.`;
  if (connection.state === 'connecting') return { text: `${lost} Reconnecting…${attempt}`, canRetry: false };
  if (connection.waitingForServer) return { text: `${lost} The chat server is down — we’ll reconnect as soon as it’s back.`, canRetry: true };
  if (connection.nextAttemptAt === undefined) {
    // Nothing scheduled: a deliberate disconnect, or not started yet.
    return { text: connection.disconnectedSince !== undefined ? lost : 'Not connected.', canRetry: true };
  }
  return { text: `${lost} Reconnecting…${attempt}`, canRetry: true };
}
