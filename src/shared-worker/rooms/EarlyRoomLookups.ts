import type { ProviderConfig, RoomConfigResponse } from '../../protocol/config';
import { fetchRoomConfig } from '../ConfigClient';
import type { SessionContext } from '../SessionContext';

/**
 * Room config requests (SPEC §7) started as soon as the provider config is known, so that they run
 * beside the websocket and login instead of after them (the join path). A join takes the request
 * made under its own config, else asks again; what a request's failure means is the join's to say.
 */
export class EarlyRoomLookups {
  private readonly lookups = new Map<string, { config: ProviderConfig; response: Promise<RoomConfigResponse> }>();

  constructor(private readonly context: Pick<SessionContext, 'config' | 'fetch' | 'clock'>) {}

  /** Asks for the room's address now, unless already asked under this config. */
  start(roomId: string, name: string): void {
    const { config } = this.context;
    if (!config || this.lookups.get(roomId)?.config === config) return;
    const response = this.request(config, name);
    // Read, and its failure reported, by the join that takes it.
    response.catch(() => {});
    this.lookups.set(roomId, { config, response });
  }

  /** The room's address lookup under `config`: the early request, else a new one. */
  take(roomId: string, name: string, config: ProviderConfig): Promise<RoomConfigResponse> {
    const early = this.lookups.get(roomId);
    this.lookups.delete(roomId);
    return early?.config === config ? early.response : this.request(config, name);
  }

  clear(): void {
    this.lookups.clear();
  }

  private request(config: ProviderConfig, name: string): Promise<RoomConfigResponse> {
    return fetchRoomConfig(this.context.fetch, this.context.clock, config, name);
  }
}
