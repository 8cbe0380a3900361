import type { AddressInfo } from 'node:net';
import { createGateway } from './gateway/Gateway';
import { readSettings, type ParleySettings } from './settings';
import { startXmppServer, type XmppServer, type XmppServerOptions } from './xmpp/XmppServer';

/** Every server Parley runs, started together; `npm start` and the tests both use this. */
export interface RunningParley {
  readonly url: string;
  readonly settings: ParleySettings;
  /** The XMPP server now running (a new instance after `restartXmpp`). */
  readonly xmpp: XmppServer;
  /** Fault injection: kills the XMPP server at once, as a crash would. */
  killXmpp(): Promise<void>;
  /** Starts the XMPP server again on the same port; the gateway keeps proxying to it. */
  restartXmpp(): Promise<void>;
  stop(): Promise<void>;
}

export async function startParley(overrides: Partial<ParleySettings> = {}, log: (line: string) => void = () => {}): Promise<RunningParley> {
  const settings = readSettings(process.env, overrides);
  const xmppOptions: XmppServerOptions = {
    domain: settings.xmppDomain,
    mucDomain: settings.mucDomain,
    tokenSecret: settings.tokenSecret,
    maxOccupants: settings.maxOccupants,
    log,
  };
  let xmpp = await startXmppServer(xmppOptions);
  try {
    const gateway = await createGateway({ settings, xmppWebsocketUrl: xmpp.websocketUrl });
    await gateway.listen({ host: settings.host, port: settings.port });
    const { port } = gateway.server.address() as AddressInfo;
    return {
      url: `http://${settings.host}:${port}/`,
      settings,
      get xmpp() {
        return xmpp;
      },
      async killXmpp() {
        await xmpp.kill();
      },
      async restartXmpp() {
        const crashed = xmpp;
        await crashed.kill();
        // After a kill, stop only removes the runtime folder.
        await crashed.stop();
        xmpp = await startXmppServer({ ...xmppOptions, httpPort: crashed.httpPort });
      },
      async stop() {
        await gateway.close();
        await xmpp.stop();
      },
    };
  } catch (error) {
    await xmpp.stop();
    throw error;
  }
}
