import type { ConnectionRecord } from '../protocol/session-state';
import { connectionTried } from './connectionLoss';

/** How the connection stands, for its colour: fine, being worked on, or waiting for the network. */
export type ConnectionTone = 'ok' | 'working' | 'offline' | 'down';

export interface ConnectionWords {
  text: string;
  tone: ConnectionTone;
}

/**
 * The signalling connection (SPEC §4) in the words a person uses: "Connected", "Connecting…",
 * "Reconnecting… (attempt 3)", "Waiting for the chat server…", "Offline — we'll reconnect when
 * you're back", "The chat server refuses the sign-in", "Not connected".
 */
export function connectionWords(connection: ConnectionRecord): ConnectionWords {
  if (connection.state === 'connected') return { text: 'Connected', tone: 'ok' };
  if (connection.offline) return { text: 'Offline — we’ll reconnect when you’re back', tone: 'offline' };
  if (connection.loginRefused) return { text: 'The chat server refuses the sign-in', tone: 'down' };
  const attempt = connection.reconnectAttempts > 0 ? ` (attempt ${connection.reconnectAttempts})` : '';
  // Only a session that had started is reconnected; before one, the attempts are still connecting.
  const again = connection.wasConnected ? `Reconnecting…${attempt}` : `Connecting…${attempt}`;
  if (connection.state === 'connecting') return { text: connectionTried(connection) ? again : 'Connecting…', tone: 'working' };
  // Issue 13: past the spec's attempts the session waits for the gateway to say the server is back.
  if (connection.waitingForServer) return { text: 'Waiting for the chat server…', tone: 'working' };
  // Failed or disconnected: a retry is scheduled, or nothing is (a deliberate disconnect, not started yet).
  if (connection.nextAttemptAt !== undefined) return { text: again, tone: 'working' };
  return { text: 'Not connected', tone: 'down' };
}
