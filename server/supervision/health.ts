import type { RelayServer } from '../relay/RelayServer';
import type { XmppServer } from '../xmpp/XmppServer';

export type PartHealth = 'up' | 'down';

/** What `GET /api/health` answers (200 when every part that runs is up, 503 naming the one down). */
export interface HealthReport {
  xmpp: PartHealth;
  relay: PartHealth | 'off';
}

/** A health check answers quickly: an XMPP server slower than this counts as down. */
const XMPP_PROBE_TIMEOUT_MS = 2_000;

export function isHealthy(report: HealthReport): boolean {
  return report.xmpp === 'up' && report.relay !== 'down';
}

/** Asks each part: the XMPP server must answer its stats route; the relay must have a live worker. */
export async function checkHealth(xmpp: XmppServer, relay: RelayServer | undefined | 'off'): Promise<HealthReport> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), XMPP_PROBE_TIMEOUT_MS);
  });
  const answers = xmpp.stats().then(
    () => true,
    () => false,
  );
  const xmppUp = xmpp.exitStatus === undefined && (await Promise.race([answers, timedOut]));
  clearTimeout(timer);
  const relayHealth = relay === 'off' ? 'off' : relay?.workers.some((worker) => !worker.closed) ? 'up' : 'down';
  return { xmpp: xmppUp ? 'up' : 'down', relay: relayHealth };
}
