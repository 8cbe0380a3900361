import WebSocket from 'ws';
import type { ProviderConfig } from '../../src/protocol/config';

/**
 * A bare RFC 7395 client on the `ws` package (tests only): SASL PLAIN with a config's credential,
 * resource binding, a room join, raw groupchat sends — and `stopReading()`, which pauses its socket
 * as a client that has stopped reading would (StanzaJS cannot be paused).
 */
export interface RawXmppClient {
  sendGroupchat(roomAddress: string, body: string): Promise<void>;
  /** Stops taking anything off the socket: the server's data piles up behind it. */
  stopReading(): void;
  readonly closed: Promise<void>;
  close(): void;
}

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&apos;');

export async function rawXmppClientIn(config: ProviderConfig, roomAddress: string, nick: string, timeoutMs = 10_000): Promise<RawXmppClient> {
  const socket = new WebSocket(config.signalingUrl, 'xmpp');
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let received = '';
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    // Kept only while an answer is awaited (login, join): a flood is not held in memory.
    if (waiters.size === 0) return;
    received += data.toString();
    for (const wake of waiters) wake();
  });
  /** Resolves once what came so far matches, then forgets it. */
  const expectIncoming = (pattern: RegExp, what: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${what}: not received within ${timeoutMs} ms; got ${received.slice(-500)}`)), timeoutMs);
      const check = (): void => {
        if (!pattern.test(received)) return;
        received = '';
        waiters.delete(check);
        clearTimeout(timer);
        resolve();
      };
      waiters.add(check);
      check();
    });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  const [localpart, domain] = config.userId.split('@') as [string, string];
  const open = `<open xmlns='urn:ietf:params:xml:ns:xmpp-framing' to='${domain}' version='1.0'/>`;
  socket.send(open);
  await expectIncoming(/<\/stream:features>|<\/features>/, 'stream features');
  socket.send(`<auth xmlns='urn:ietf:params:xml:ns:xmpp-sasl' mechanism='PLAIN'>${Buffer.from(`\0${localpart}\0${config.credential}`).toString('base64')}</auth>`);
  await expectIncoming(/<success/, 'SASL success');
  socket.send(open);
  await expectIncoming(/bind/, 'features after authentication');
  socket.send(`<iq type='set' id='bind' xmlns='jabber:client'><bind xmlns='urn:ietf:params:xml:ns:xmpp-bind'><resource>${escapeXml(config.id)}</resource></bind></iq>`);
  await expectIncoming(/<jid>/, 'resource bound');
  socket.send(`<presence to='${escapeXml(`${roomAddress}/${config.id}`)}' xmlns='jabber:client'><x xmlns='http://jabber.org/protocol/muc'/><nick xmlns='http://jabber.org/protocol/nick'>${escapeXml(nick)}</nick></presence>`);
  await expectIncoming(/status code=["']110["']/, 'room joined');

  return {
    sendGroupchat: (to, body) =>
      new Promise((resolve, reject) =>
        socket.send(`<message to='${escapeXml(to)}' type='groupchat' xmlns='jabber:client'><body>${escapeXml(body)}</body></message>`, (error) => (error ? reject(error) : resolve())),
      ),
    stopReading: () => socket.pause(),
    closed,
    close: () => socket.terminate(),
  };
}
