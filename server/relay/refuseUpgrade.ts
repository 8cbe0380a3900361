import type { Duplex } from 'node:stream';

/**
 * Answers an upgrade the relay cannot take with 503 and closes the socket. Node drops its own
 * error listener from a socket handed to `upgrade`, so one is added first: a client that resets
 * the connection while the answer is written would otherwise throw out of the process.
 */
export function refuseUpgrade(socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
}
