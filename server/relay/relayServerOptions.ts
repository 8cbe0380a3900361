import type { ConfiguredSettings } from '../settings';
import type { RelayServerOptions } from './RelayServer';

/** The relay's options from the settings: the same for the relay beside the gateway and for a relay host of its own. */
export function relayServerOptions(settings: ConfiguredSettings, tokenSecret: string, workerBin: string, log: (line: string) => void): RelayServerOptions {
  return {
    tokenSecret,
    workers: settings.relayWorkers,
    workerBin,
    listenIp: settings.relayListenIp,
    announcedAddress: settings.relayAnnouncedIp,
    rtcMinPort: settings.relayRtcMinPort,
    rtcMaxPort: settings.relayRtcMaxPort,
    spillLoad: settings.relaySpillLoad,
    limits: settings.relayLimits,
    log,
  };
}
