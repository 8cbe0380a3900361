import type { ProviderConfig, RoomConfigResponse } from '../../protocol/config';
import { fetchRoomConfig } from '../ConfigClient';
import type { SessionContext } from '../SessionContext';

/**
 * The room's address from an early lookup, offered before its join takes it; true when it was
 * taken (the room now has its address), false to leave the answer to the join.
 */
export type EarlyAddressFound = (roomId: string, response: RoomConfigResponse) => boolean;

/**
 * Room config requests (SPEC §7) started as soon as the provider config is known, so that they run
 * beside the websocket and login instead of after them (the join path). An answer that comes while
 * its room still waits for the login is offered at once (`found`): the tab then knows the room's
 * address, and so its call, before the room is joined. A join takes the request made under its own
 * config, else asks again; what a request's failure means is the join's to say.
 */
export class EarlyRoomLookups {
  private readonly lookups = new Map<string, { config: ProviderConfig; response: Promise<RoomConfigResponse> }>();

  constructor(
    private readonly context: Pick<SessionContext, 'config' | 'fetch' | 'clock'>,
    private readonly found: EarlyAddressFound,
  ) {}

  /** Asks for the room's address now, unless already asked under this config. */
  start(roomId: string, name: string): void {
    const { config } = this.context;
    if (!config || this.lookups.get(roomId)?.config === config) return;
    const response = this.request(config, name);
    const lookup = { config, response };
    this.lookups.set(roomId, lookup);
    response.then(
      (answer) => {
        if (this.lookups.get(roomId) === lookup && this.found(roomId, answer)) this.lookups.delete(roomId);
      },
      // Read, and its failure reported, by the join that takes it.
      () => {},
    );
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
