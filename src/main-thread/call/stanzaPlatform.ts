/**
 * StanzaJS's platform module as the tab's Jingle uses it. StanzaJS's browser platform also brings
 * Buffer, Node-style streams and hashes — what the shared worker's XMPP client needs, about 19 KB
 * of gzip on the call page's way to its first frame — while the tab's Jingle (SessionManager,
 * Session, file transfer never started) touches only the three names below. `vite.config.ts`
 * (`tabStanzaModules`) resolves StanzaJS's Jingle imports of its platform to this module in the
 * page build; the shared worker keeps StanzaJS's own.
 */

/** SessionManager's default peer connection factory. */
export const RTCPeerConnection = globalThis.RTCPeerConnection;

/** Session ids (StanzaJS `uuid`): random octets, indexed one by one. */
export function randomBytes(size: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(size));
}

const utf8 = new TextEncoder();

/** A string's UTF-8 octets, compared as StanzaJS's `octetCompare` compares Buffers (the session-initiate tie-break). */
class Octets {
  private readonly bytes: Uint8Array;

  constructor(text: string) {
    this.bytes = utf8.encode(text);
  }

  compare(other: Octets): -1 | 0 | 1 {
    const length = Math.min(this.bytes.length, other.bytes.length);
    for (let index = 0; index < length; index += 1) {
      if (this.bytes[index] !== other.bytes[index]) return this.bytes[index]! < other.bytes[index]! ? -1 : 1;
    }
    return this.bytes.length === other.bytes.length ? 0 : this.bytes.length < other.bytes.length ? -1 : 1;
  }
}

/** Only `Buffer.from(text, 'utf8')` is reached: `octetCompare`. */
export const Buffer = { from: (text: string) => new Octets(text) };
