import { errorMessage } from '../../../src/common/errorMessage';
import { readSettings, takeParleySecrets } from '../../settings';
import { relayServerOptions } from '../relayServerOptions';
import { relayWorkerBinary } from '../workerBinary';
import { RelayHost } from './RelayHost';

/**
 * A relay host's process (README "How it scales out"): `node --import tsx server/relay/host/main.ts`
 * with PARLEY_TOKEN_SECRET (the gateways'), PARLEY_RELAY_GATEWAYS, PARLEY_RELAY_LISTEN_IP and
 * PARLEY_RELAY_PORT; runs until SIGINT/SIGTERM.
 */
const log = (line: string): void => void process.stderr.write(`${line}\n`);
try {
  const settings = readSettings(takeParleySecrets());
  if (!settings.tokenSecret) throw new Error('PARLEY_TOKEN_SECRET must be set: the gateways verify announcements, and the relay verifies clients, with it');
  if (settings.relayGateways.length === 0) throw new Error('PARLEY_RELAY_GATEWAYS must name at least one gateway (http://host:port)');
  if (settings.relayWorkers < 1) throw new Error('PARLEY_RELAY_WORKERS must be at least 1 on a relay host');
  const host = await RelayHost.start({
    relay: relayServerOptions(settings, settings.tokenSecret, await relayWorkerBinary(log), log),
    host: settings.relayListenIp,
    port: settings.relayHostPort,
    publicUrl: settings.relayPublicUrl,
    gateways: settings.relayGateways,
    heartbeatMs: settings.relayHeartbeatMs,
  });
  console.log(`Relay host ${host.id} ready at ${host.url}`);
  const shutdown = (): void => void host.close().then(() => process.exit(0));
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
} catch (error) {
  console.error(errorMessage(error));
  process.exit(1);
}
