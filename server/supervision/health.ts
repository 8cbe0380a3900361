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

/** How long an XMPP server's answer to the probe stands for it. */
export const XMPP_PROBE_REUSE_MS = 1_000;

/**
 * Whether the XMPP server answers its stats route, which has it list every session and room: asked
 * once at a time, and the answer reused for XMPP_PROBE_REUSE_MS, so that health asked by anyone (a
 * load balancer, or a flood of requests) costs the server at most one listing a second. A server
 * that exited, or the one started in its place, is never answered for from an earlier probe.
 */
export class XmppProbes {
  private last: { server: XmppServer; up: Promise<boolean>; settledAt: number | undefined } | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  up(server: XmppServer): Promise<boolean> {
    const last = this.last;
    if (last?.server === server && (last.settledAt === undefined || this.now() - last.settledAt < XMPP_PROBE_REUSE_MS)) return last.up;
    const probe: NonNullable<XmppProbes['last']> = { server, up: answersWithin(server, XMPP_PROBE_TIMEOUT_MS), settledAt: undefined };
    void probe.up.then(() => (probe.settledAt = this.now()));
    this.last = probe;
    return probe.up;
  }
}

async function answersWithin(xmpp: XmppServer, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const answers = xmpp.stats().then(
    () => true,
    () => false,
  );
  const up = await Promise.race([answers, timedOut]);
  clearTimeout(timer);
  return up;
}

/** Asks each part: the XMPP server must be running and answer its stats route (`probes`); the relay must have a live worker. */
export async function checkHealth(xmpp: XmppServer, relay: RelayServer | undefined | 'off', probes: XmppProbes): Promise<HealthReport> {
  const xmppUp = xmpp.exitStatus === undefined && (await probes.up(xmpp)) && xmpp.exitStatus === undefined;
  const relayHealth = relay === 'off' ? 'off' : relay?.workers.some((worker) => !worker.closed) ? 'up' : 'down';
  return { xmpp: xmppUp ? 'up' : 'down', relay: relayHealth };
}
