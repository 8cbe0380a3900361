import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { RELAY_UNAVAILABLE } from '../../src/protocol/relay';
import { closeWithin } from './RelayConnection';

/** Only ever closes what it takes: nothing it accepts is read. */
const unavailable = new WebSocketServer({ noServer: true, perMessageDeflate: false, maxPayload: 1024 });

/**
 * Takes a `/relay` upgrade no relay can serve (stopped, dead, or none routed) and closes it at once
 * with RELAY_UNAVAILABLE: a browser cannot read a refused upgrade's status, which looks to it like a
 * network fault, and a client resuming a session would keep asking. Node drops its own error
 * listener from a socket handed to `upgrade`, so one is added first: a client that resets the
 * connection meanwhile would otherwise throw out of the process.
 */
export function closeAsUnavailable(request: IncomingMessage, socket: Duplex, head: Buffer): void {
  socket.on('error', () => socket.destroy());
  unavailable.handleUpgrade(request, socket, head, (websocket) => {
    websocket.on('error', () => websocket.terminate());
    void closeWithin(websocket, RELAY_UNAVAILABLE, 'media relay unavailable');
  });
}
