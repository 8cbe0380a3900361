import { systemClock, type Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { parseProviderConfig } from '../../protocol/config';
import type { GatewayAddresses } from '../../protocol/endpoints';
import type { Fetch } from '../ConfigClient';
import { configRequestInit } from '../configRequestInit';
import { GuestIdentity } from '../identity/GuestIdentity';
import type { IdentityStorage } from '../identity/IdentityStorage';
import { FetchAhead } from './FetchAhead';
import { openXmppSocketAhead, type SocketConstructor } from './xmppSocketAhead';
import { xmppLoginOf, type LoginSocket, type XmppLogin } from './XmppLoginAhead';
import type { AheadSocket } from './SocketAhead';

/** The session's own read of the stored identity logs its trouble; the read ahead would only say it twice. */
const unlogged: Logger = { info: () => undefined, error: () => undefined };

/**
 * Starts what the session's first login needs and can be started without the session's code (issue
 * 14, the join path): the config request, the XMPP websocket on `scope`, and on it the login,
 * resource binding included, once the config has named the account. Returns the network as the
 * session is to use it: its first config request is the one sent here.
 */
export function startConnectionAhead<Socket extends AheadSocket & LoginSocket>(
  scope: { WebSocket: SocketConstructor<Socket> },
  addresses: GatewayAddresses,
  identityStorage: IdentityStorage,
  network: Fetch,
  log: Logger,
  clock: Clock = systemClock,
): Fetch {
  // The socket first: its handshake (TCP, TLS, the upgrade) is the longest of what starts here.
  let settleLogin!: (login: XmppLogin | undefined) => void;
  openXmppSocketAhead(scope, addresses.xmppWebsocket, { login: new Promise((resolve) => (settleLogin = resolve)), log, clock });
  const requestsAhead = new FetchAhead(network);
  // A new visitor's config request goes now: in a fresh profile, creating the identity's database
  // took 20–60 ms of a busy join. A stored identity asks again with it, and the first answer, a
  // stateless new guest, goes unused.
  const newVisitorConfig = requestsAhead.send(addresses.config, configRequestInit());
  const sessionConfig = new GuestIdentity(identityStorage, unlogged, clock)
    .current()
    .then((identity) => (identity === undefined ? newVisitorConfig : requestsAhead.send(addresses.config, configRequestInit(undefined, identity))));
  // The account of the config the session will take; none when that request failed.
  void sessionConfig
    .then(async (answer) => (answer?.ok ? xmppLoginOf(parseProviderConfig(await answer.json()), addresses.xmppWebsocket) : undefined))
    .then(settleLogin, () => settleLogin(undefined));
  return requestsAhead.fetch;
}
