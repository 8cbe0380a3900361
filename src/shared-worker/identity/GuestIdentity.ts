import { LIMITS } from '../../protocol/constants';
import { IDENTITY_READ_WITHIN_MS } from '../../protocol/clientDefaults';
import type { Clock } from '../../common/clock';
import type { Logger } from '../../common/logger';
import { readWithin } from '../indexedDb';
import type { IdentityStorage } from './IdentityStorage';

/**
 * The browser's guest identity (the same person tomorrow): the credential the config service issued,
 * sent with each config request and replaced by the renewed one each config carries. Storage trouble
 * never stops a connect: it is logged, and the config service then issues a new identity. That
 * includes a read that never settles (IndexedDB can hang): it counts as failed after
 * IDENTITY_READ_WITHIN_MS, since every connect and config refresh waits for it.
 */
export class GuestIdentity {
  constructor(
    private readonly storage: IdentityStorage,
    private readonly log: Logger,
    private readonly clock: Clock,
  ) {}

  /** The stored credential, if there is a plausible one. */
  async current(): Promise<string | undefined> {
    let stored: unknown;
    try {
      stored = await readWithin(this.storage.load(), this.clock, IDENTITY_READ_WITHIN_MS);
    } catch (error) {
      this.log.info(`could not read the stored identity: ${String(error)}`);
      return undefined;
    }
    if (stored === undefined) return undefined;
    if (typeof stored === 'string' && stored.length > 0 && stored.length <= LIMITS.identityCredentialLength) return stored;
    this.log.info('the stored identity is not a credential; the config service will issue a new one');
    return undefined;
  }

  /** Keeps the renewed credential from a config (none: a product user, whose token names them). */
  async renew(credential: string | undefined): Promise<void> {
    if (credential === undefined) return;
    try {
      await this.storage.save(credential);
    } catch (error) {
      this.log.info(`could not store the renewed identity: ${String(error)}`);
    }
  }
}
