import type { Agent } from 'stanza';
import { NS_JINGLE_1 } from 'stanza/Namespaces.js';
import bind from 'stanza/plugins/bind.js';
import connection from 'stanza/plugins/connection.js';
import disco from 'stanza/plugins/disco.js';
import entity from 'stanza/plugins/entity.js';
import features from 'stanza/plugins/features.js';
import hostmeta from 'stanza/plugins/hostmeta.js';
import messaging from 'stanza/plugins/messaging.js';
import muc from 'stanza/plugins/muc.js';
import sasl from 'stanza/plugins/sasl.js';
import { commonJsDefault } from '../protocol/commonJsDefault';

/** A StanzaJS plugin module's function (`commonJsDefault`: the build hands over the module's whole `exports`). */
const plugin = (imported: unknown) => commonJsDefault(imported as (client: Agent) => void);

/**
 * StanzaJS's plugin index as the shared worker's build sees it (`vite.config.ts`,
 * `workerStanzaModules`): its index would bring every plugin it has into the worker, and with its
 * Jingle plugin every kind of Jingle session and the SDP code, which the worker compiles while the
 * login made ahead waits for its thread (issue 14, the join path).
 */

/** StanzaJS's own core, which its client's constructor uses: stream features, disco, bind, ping, XEP-0156, SASL. */
export function core(client: Agent): void {
  client.use(plugin(features));
  client.use(plugin(disco));
  client.use(plugin(bind));
  client.use(plugin(connection));
  client.use(plugin(hostmeta));
  client.use(plugin(sasl));
}

/**
 * What Parley's session uses of the rest (`createParleyXmppClient`, in the worker and in Node
 * alike): messages (chat states, corrections, real-time text, receipts), rooms, and the entity
 * queries a plain XMPP client may ask. Jingle sessions are the tabs' (`JingleRouter` passes them
 * on), so StanzaJS's Jingle plugin and its session manager are not used; the session says it
 * speaks Jingle itself. Rosters, PEP, PubSub, avatars, archives, ad-hoc commands, account and
 * sharing plugins Parley never calls are left out.
 */
export default function parleyPlugins(client: Agent): void {
  client.use(plugin(messaging));
  client.use(plugin(muc));
  client.use(plugin(entity));
  client.disco.addFeature(NS_JINGLE_1);
}
