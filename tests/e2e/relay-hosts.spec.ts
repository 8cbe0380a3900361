import { startRelayHost, type RelayHostProcess } from '../support/relayHosts';
import { expectEveryoneDecodesEveryone, personWithRelay, type RelayPerson } from './relay-people';
import { expect, test } from './relay-server';
import { uniqueRoomName } from './rooms-people';

/**
 * Relays on several hosts (issue 16, README "How it scales out") in real Chromium: two relay host
 * processes on 127.0.0.2 and 127.0.0.3 announce themselves to the gateway; a 3-person call's media
 * goes through the host its room is placed on; that host is killed (SIGKILL) and the call's media
 * comes back through the other host, in the same pages (no reload). Run it in a loopback-only
 * network namespace, in the "relay calls" project.
 */

test.use({ parleySettings: { remoteRelays: true, relayWorkers: 0 } });

const HEARTBEAT_MS = 500;

test.describe('Relays on several hosts: a relay host that dies loses its calls to the other, which the clients follow without a reload', () => {
  test("three people's call moves to the other relay host when its host is killed", async ({ browser, pageUrl, parley }) => {
    test.setTimeout(300_000);
    const hosts: RelayHostProcess[] = [];
    const everyone: RelayPerson[] = [];
    try {
      for (const address of ['127.0.0.2', '127.0.0.3']) {
        hosts.push(await startRelayHost({ address, gatewayUrl: parley.url, tokenSecret: parley.settings.tokenSecret, heartbeatMs: HEARTBEAT_MS }));
      }
      const registry = parley.relayRegistry!;
      await expect.poll(() => registry.liveAnnouncements().length).toBe(2);
      const room = uniqueRoomName('relay-hosts');
      const url = pageUrl({ room });
      for (const name of ['alice', 'bob', 'carol']) everyone.push(await personWithRelay(browser, url, name));
      const roomAddress = everyone[0]!.address.split('/')[0]!;
      const carrier = (): string[] => registry.liveAnnouncements().filter(({ rooms }) => rooms.includes(roomAddress)).map(({ url: hostUrl }) => hostUrl);

      await test.step('the call goes through the host its room is placed on', async () => {
        await expect.poll(carrier, { timeout: 60_000 }).toHaveLength(1);
        await expectEveryoneDecodesEveryone(everyone, 'relay');
      });

      const [placedOn] = carrier();
      const dying = hosts.find((host) => host.url === placedOn)!;
      const surviving = hosts.find((host) => host !== dying)!;
      await test.step('its host is killed: the call comes back through the other host, in the same pages', async () => {
        dying.child.kill('SIGKILL');
        await expect.poll(carrier, { timeout: 60_000 }).toEqual([surviving.url]);
        for (const person of everyone) {
          await expect.poll(async () => (await person.page.evaluate(() => window.relayFixture?.relayStatus()))?.state, { timeout: 60_000 }).toBe('relay');
        }
        await expectEveryoneDecodesEveryone(everyone, 'relay');
        for (const person of everyone) expect(await person.page.evaluate(() => window.relayFixture?.pageLoadId)).toBe(person.pageLoadId);
      });
    } finally {
      await Promise.all(everyone.map((person) => person.context.close()));
      for (const { child } of hosts) child.kill('SIGKILL');
    }
  });
});
