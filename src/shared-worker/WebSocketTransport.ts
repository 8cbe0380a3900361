import type { Agent } from 'stanza';
import StanzaTransportModule from 'stanza/transports/websocket.js';
import { commonJsDefault } from '../protocol/commonJsDefault';

/** A websocket frame as either runtime's socket delivers it (the browser's, or `ws`'s in Node). */
interface FrameEvent {
  data: unknown;
}

/** What this transport reaches of StanzaJS's (private in its typings). */
interface TransportInternals {
  client: Agent;
  socket?: { readyState: number; send(frame: string): void; onmessage: ((event: FrameEvent) => void) | null };
  parser?: { write(frame: string): void };
}

const OPEN = 1;

const StanzaWebSocketTransport = commonJsDefault(StanzaTransportModule);

/**
 * StanzaJS's websocket transport (RFC 7395) without its round trip of every frame through UTF-8
 * bytes: it passes each frame it receives and sends through `Buffer.from(frame, 'utf8').toString()`,
 * which in a browser is the pure-JavaScript Buffer of StanzaJS's platform. Profiled in the shared
 * worker of a two-person join, those conversions were a quarter of the thread's work, the Jingle
 * offer's on its way to the page among them (issue 14, the join path). A websocket's text frames
 * are strings, and `send` encodes a string as UTF-8 itself, so the round trip changed nothing.
 */
export class WebSocketTransport extends StanzaWebSocketTransport {
  override connect(...args: Parameters<InstanceType<typeof StanzaWebSocketTransport>['connect']>): void {
    super.connect(...args);
    const transport = this as unknown as TransportInternals;
    if (!transport.socket) return;
    transport.socket.onmessage = (event) => {
      const frame = String(event.data);
      transport.client.emit('raw', 'incoming', frame);
      transport.parser?.write(frame);
    };
  }

  override _write(frame: string, _encoding: string, done: (error?: Error) => void): void {
    const transport = this as unknown as TransportInternals;
    if (!transport.socket || transport.socket.readyState !== OPEN) {
      done(new Error('Socket closed'));
      return;
    }
    transport.client.emit('raw', 'outgoing', frame);
    transport.socket.send(frame);
    done();
  }
}
