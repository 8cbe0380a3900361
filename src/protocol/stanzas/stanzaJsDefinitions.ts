import type { JXT } from 'stanza';
import { commonJsDefault } from '../commonJsDefault';
import rfc3921 from 'stanza/protocol/rfc3921.js';
import rfc6120 from 'stanza/protocol/rfc6120.js';
import rfc6121 from 'stanza/protocol/rfc6121.js';
import rfc7395 from 'stanza/protocol/rfc7395.js';
import xep0004 from 'stanza/protocol/xep0004.js';
import xep0030 from 'stanza/protocol/xep0030.js';
import xep0045 from 'stanza/protocol/xep0045.js';
import xep0059 from 'stanza/protocol/xep0059.js';
import xep0085 from 'stanza/protocol/xep0085.js';
import xep0115 from 'stanza/protocol/xep0115.js';
import xep0166 from 'stanza/protocol/xep0166.js';
import xep0167 from 'stanza/protocol/xep0167.js';
import xep0172 from 'stanza/protocol/xep0172.js';
import xep0176 from 'stanza/protocol/xep0176.js';
import xep0177 from 'stanza/protocol/xep0177.js';
import xep0198 from 'stanza/protocol/xep0198.js';
import xep0199 from 'stanza/protocol/xep0199.js';
import xep0203 from 'stanza/protocol/xep0203.js';
import xep0224 from 'stanza/protocol/xep0224.js';
import xep0231 from 'stanza/protocol/xep0231.js';
import xep0234 from 'stanza/protocol/xep0234.js';
import xep0247 from 'stanza/protocol/xep0247.js';
import xep0260 from 'stanza/protocol/xep0260.js';
import xep0261 from 'stanza/protocol/xep0261.js';
import xep0264 from 'stanza/protocol/xep0264.js';
import xep0297 from 'stanza/protocol/xep0297.js';
import xep0300 from 'stanza/protocol/xep0300.js';
import xep0301 from 'stanza/protocol/xep0301.js';
import xep0308 from 'stanza/protocol/xep0308.js';
import xep0320 from 'stanza/protocol/xep0320.js';
import xep0335 from 'stanza/protocol/xep0335.js';
import xep0338 from 'stanza/protocol/xep0338.js';
import xep0343 from 'stanza/protocol/xep0343.js';
import xep0421 from 'stanza/protocol/xep0421.js';

type Definitions = JXT.DefinitionOptions | JXT.DefinitionOptions[];

/**
 * The StanzaJS protocol definitions Parley's wire uses (PROTOCOL.md), in StanzaJS's own order (a
 * later definition extends the elements of an earlier one): the stream, login and stanzas; the
 * room (XEP-0045 with data forms and disco, XEP-0115 capabilities, XEP-0172 nicks); chat (XEP-0085
 * chat states, XEP-0203 delays with XEP-0297 forwarding, XEP-0224 attention, XEP-0301 real-time
 * text, XEP-0308 corrections, XEP-0335 JSON payloads); Jingle (XEP-0166/0167/0176/0320/0338/0343);
 * ping (XEP-0199) and the stream-management features (XEP-0198); Prosody's occupant ids (XEP-0421).
 * Jingle's other applications and transports stay too (file transfer with its hashes, thumbnails and
 * bits of binary, XML streams, raw UDP, SOCKS5, IBB): with RTP as the only application StanzaJS
 * takes it for the default and leaves `applicationType` out of what it reads, and the call's
 * responder then refuses the offer. StanzaJS knows 82 modules; the rest (OMEMO, PubSub, avatars,
 * vCards…) would cost every session start their registration and would read nothing Parley uses.
 * `tests/integration/stanza-definitions.test.ts` holds this list to StanzaJS's full reading.
 */
export const STANZAJS_DEFINITIONS: readonly Definitions[] = [
  rfc3921,
  rfc6120,
  rfc6121,
  rfc7395,
  xep0004,
  xep0030,
  xep0045,
  xep0059,
  xep0085,
  xep0115,
  xep0166,
  xep0167,
  xep0172,
  xep0176,
  xep0177,
  xep0198,
  xep0199,
  xep0203,
  xep0224,
  xep0231,
  xep0234,
  xep0247,
  xep0260,
  xep0261,
  xep0264,
  xep0297,
  xep0300,
  xep0301,
  xep0308,
  xep0320,
  xep0335,
  xep0338,
  xep0343,
  xep0421,
].map((imported) => commonJsDefault<Definitions>(imported));
