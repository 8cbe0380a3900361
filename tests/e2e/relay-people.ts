import type { Browser, BrowserContext, Page } from '@playwright/test';
import type { RunningParley } from '../../server/Parley';
import type { ConsumerStats } from '../../server/relay/ConsumerSession';
import type { IngestStats } from '../../server/relay/Ingest';
import type { RelayReceivedMedia } from './relay-fixture/api';
import { expectOfEveryPair } from './expect-all';
import { expect } from './relay-server';

/** One person running the call engine, relay on, in a browser context of their own. */
export interface RelayPerson {
  name: string;
  context: BrowserContext;
  page: Page;
  /** Occupant address. */
  address: string;
  /** `<user sid>`: the relay's consumer stats name receivers by it. */
  id: string;
  /** The relay's ingest id for their camera and microphone. */
  streamId: string;
  cameraWidth: number;
  pageLoadId: string;
}

export async function personWithRelay(browser: Browser, url: string, name: string): Promise<RelayPerson> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`[${name}] ${error.message}`));
  await page.goto(url);
  const handle = await page.waitForFunction(() => window.relayFixture !== undefined || window.relayFixtureError !== undefined, undefined, { timeout: 30_000 });
  await handle.dispose();
  const failure = await page.evaluate(() => window.relayFixtureError);
  if (failure) throw new Error(`relay fixture failed: ${failure}`);
  const facts = await page.evaluate(() => {
    const fixture = window.relayFixture!;
    return { address: fixture.selfAddress, id: fixture.selfId, streamId: fixture.cameraStreamId, cameraWidth: fixture.cameraWidth, pageLoadId: fixture.pageLoadId };
  });
  return { name, context, page, ...facts };
}

export function received(person: RelayPerson): Promise<RelayReceivedMedia[]> {
  return person.page.evaluate(() => window.relayFixture?.received() ?? Promise.resolve([]));
}

/** The newest camera video `person` receives from `owner` (the one a tile shows). */
export async function cameraFrom(person: RelayPerson, owner: RelayPerson): Promise<RelayReceivedMedia | undefined> {
  return (await received(person)).filter((item) => item.owner === owner.address && item.kind === 'video' && !item.screenCapture).at(-1);
}

/**
 * Polls until a counter of the same media item rises between two reads: `read` gives the item and
 * its count now (undefined while there is none that counts). Each item counts from 0 — the session
 * that replaces another (a path change, a restart) brings a new item — so a count is only ever
 * compared with an earlier count of its own item.
 */
async function expectRising(read: () => Promise<{ id: string; count: number } | undefined>, message: string): Promise<void> {
  let seen: { id: string; count: number } | undefined;
  await expect
    .poll(
      async () => {
        const now = await read();
        const rising = now !== undefined && seen?.id === now.id && now.count > seen.count;
        seen = now;
        return rising;
      },
      { timeout: 40_000, message },
    )
    .toBe(true);
}

/**
 * `person` decodes `owner`'s camera (frames rising on one item) — arriving over `path` as the
 * receiving session's transport says (ice-lite for relay).
 */
export async function expectDecoding(person: RelayPerson, owner: RelayPerson, path: 'mesh' | 'relay'): Promise<void> {
  await expectRising(async () => {
    const item = await cameraFrom(person, owner);
    return item?.path === path && item.framesDecoded > 0 ? { id: item.id, count: item.framesDecoded } : undefined;
  }, `${person.name} decodes ${owner.name} over ${path}`);
}

/** `person` receives `owner`'s audio over `path`: packets rising on one item. */
export async function expectHearing(person: RelayPerson, owner: RelayPerson, path: 'mesh' | 'relay'): Promise<void> {
  await expectRising(async () => {
    const item = (await received(person)).filter((candidate) => candidate.owner === owner.address && candidate.kind === 'audio' && candidate.path === path).at(-1);
    return item && item.packetsReceived > 0 ? { id: item.id, count: item.packetsReceived } : undefined;
  }, `${person.name} hears ${owner.name} over ${path}`);
}

export function expectEveryoneDecodesEveryone(people: readonly RelayPerson[], path: 'mesh' | 'relay'): Promise<void> {
  return expectOfEveryPair(people, (person, owner) => [expectDecoding(person, owner, path), expectHearing(person, owner, path)]);
}

/** The relay's own stats of one room: by its router ids, so that other rooms on the same relay do not count. */
export function relayRoomStats(parley: RunningParley, roomAddress: string): { consumers: ConsumerStats[]; ingests: IngestStats[] } {
  const stats = parley.relay?.stats();
  const routers = new Set(stats?.rooms.find((room) => room.key === `room:${roomAddress}`)?.routerIds);
  return {
    consumers: (stats?.consumerDetails ?? []).filter((consumer) => routers.has(consumer.routerId)),
    ingests: (stats?.ingestDetails ?? []).filter((ingest) => routers.has(ingest.routerId)),
  };
}

/** The consumer's transport has ICE up, by the relay's own account. */
export function iceConnected(consumer: ConsumerStats): boolean {
  return consumer.iceState === 'connected' || consumer.iceState === 'completed';
}

/** A consumer its sender made ahead for the next person to join (CLAIM_CONSUMER), with no receiver yet: it forwards nothing. */
export function waitsForReceiver(consumer: ConsumerStats): boolean {
  return consumer.peerId === undefined;
}

/** The relay's own consumers of `sender`'s stream (to `receiver` if given). */
export function relayConsumers(parley: RunningParley, sender: RelayPerson, receiver?: RelayPerson): ConsumerStats[] {
  return (parley.relay?.stats().consumerDetails ?? []).filter((consumer) => consumer.source === sender.streamId && (!receiver || consumer.peerId === receiver.id));
}

/**
 * From the relay's own bookkeeping: every sender's stream is ingested and consumed by every other
 * person, audio and video, with ICE and DTLS up and nothing paused.
 */
export function relayCarriesEveryone(parley: RunningParley, people: readonly RelayPerson[]): boolean {
  const stats = parley.relay?.stats();
  if (!stats) return false;
  return people.every(
    (sender) =>
      stats.ingestDetails.some((ingest) => ingest.id === sender.streamId && ingest.producers.length === 2) &&
      people
        .filter((receiver) => receiver !== sender)
        .every((receiver) => {
          const consumers = relayConsumers(parley, sender, receiver);
          return (
            consumers.map((consumer) => consumer.kind).sort().join() === 'audio,video' &&
            consumers.every((consumer) => !consumer.paused && iceConnected(consumer))
          );
        }),
  );
}
