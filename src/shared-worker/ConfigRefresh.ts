import type { Clock } from '../common/clock';
import { errorMessage } from '../common/errorMessage';
import type { Logger } from '../common/logger';
import { CONFIG_REFRESH } from '../protocol/clientDefaults';
import { configLifetimeMs, type ProviderConfig } from '../protocol/config';

/** The longest delay a timer takes (a 32-bit signed count of milliseconds); longer ones fire at once. */
const MAX_TIMER_DELAY_MS = 2 ** 31 - 1;

/**
 * Keeps a connected session's config fresh (CONFIG_REFRESH): asks for it again before its
 * credential and relay token expire, and hands the new one over (`take`), so that the room-config
 * requests, the relay's next AUTH and a reconnect's `resume` present valid tokens however long the
 * connection lasts. A config whose tokens say no lifetime is not refreshed.
 */
export class ConfigRefresh {
  private timer: unknown;
  /** Advanced by `stop`: a refresh begun before then hands nothing over. */
  private generation = 0;

  constructor(
    private readonly clock: Clock,
    private readonly log: Pick<Logger, 'info'>,
    /** The config request (with `resume`). */
    private readonly request: () => Promise<ProviderConfig>,
    /** A fresh config: false when it cannot replace the current one in place (another id or user). */
    private readonly take: (config: ProviderConfig) => boolean,
  ) {}

  /** Plans the refresh of the config asked for at `askedAt` (clock time). */
  plan(config: ProviderConfig, askedAt: number): void {
    this.stop();
    const lifetime = configLifetimeMs(config);
    if (lifetime === undefined) return;
    this.after(askedAt + lifetime * CONFIG_REFRESH.lifetimeFraction - this.clock.now(), lifetime);
  }

  /** The connection ended: its reconnect asks for a config of its own. */
  stop(): void {
    this.generation += 1;
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private after(delayMs: number, lifetime: number): void {
    const generation = this.generation;
    const delay = Math.min(Math.max(delayMs, CONFIG_REFRESH.minDelayMs), MAX_TIMER_DELAY_MS);
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      void this.refresh(generation, lifetime);
    }, delay);
  }

  private async refresh(generation: number, lifetime: number): Promise<void> {
    const askedAt = this.clock.now();
    const retryMs = Math.min(CONFIG_REFRESH.retryDelayMs, lifetime / 4);
    let config: ProviderConfig;
    try {
      config = await this.request();
    } catch (error) {
      if (generation !== this.generation) return;
      this.log.info(`the config was not refreshed (${errorMessage(error)}); trying again in ${Math.round(retryMs / 1000)} s`);
      this.after(retryMs, lifetime);
      return;
    }
    if (generation !== this.generation) return;
    if (!this.take(config)) {
      this.after(retryMs, lifetime);
      return;
    }
    this.plan(config, askedAt);
  }
}
