// Beyond one machine (issue 16) in real Chromium: two ejabberd nodes in one cluster on loopback
// (127.0.0.2 and 127.0.0.3), each with its own gateway, as a deployment runs them (README "How it
// scales out"). How a browser reaches another node's gateway when its own node dies is the
// deployment's one address in front of the gateways (a load balancer, DNS or anycast); here it is
// a small TCP front on 127.0.0.4 (tests/support/FailoverFront.ts) that Bob's browser connects
// through: to node B's gateway while it is up, to node A's once node B is gone. Alice connects to
// node A's gateway directly. Run it in a loopback-only network namespace, in the "app" project.
import { randomUUID } from 'node:crypto';
import type { RunningParley } from '../../server/Parley';
import type { ParleySettings } from '../../server/settings';
import { freeLoopbackPort } from '../../server/xmpp/freeLoopbackPort';
import { FailoverFront } from '../support/FailoverFront';
import { startTestParley } from '../support/testParley';
import { callButton, expectDecodingVideo, joinCall, LIGHT_VIDEO_TIERS } from './call-ui-people';
import { expectAll } from './expect-all';
import { BACK_WITHIN_MS, expectOutageNoticed, outageSpan, reportFault, timeUntilBack, watchOutage } from './faults';
import { expect, test } from './fixtures';
import { chatLog, enterPassword, inTheRoom, kickAndBan, lockRoom, newPerson, participantEntry, say, type Person, uniqueRoomName } from './rooms-people';
import { expectFramesRoseWithin, tileSamples, videoGapFigure, watchTile } from './video-continuity';

/** A node of the cluster: ejabberd joined to the others, and its gateway, both on `address`. */
function clusterNode(address: string, distributionPort: number, tokenSecret: string, join: string[]): Promise<RunningParley> {
  const settings: Partial<ParleySettings> = {
    host: address,
    xmppServer: 'ejabberd',
    xmppCluster: { address, distributionPort, join },
    tokenSecret,
    relayWorkers: 0,
    videoResolutionTiers: LIGHT_VIDEO_TIERS,
  };
  return startTestParley(settings);
}

test.describe('ejabberd cluster: a room and its call outlive the node the room started on (issue 16)', () => {
  test('a person through each node lock, chat, kick and call; node B is killed and its person is back through node A without a reload, the call carrying on', async ({ browser }) => {
    test.setTimeout(300_000);
    const started: Array<{ stop(): Promise<void> }> = [];
    const people: Person[] = [];
    const arrive = async (url: string, room: string, name: string): Promise<Person> => {
      const person = await newPerson(browser, url, room, name);
      people.push(person);
      return person;
    };
    try {
      // Every node listens for Erlang distribution on one port, each on its own address.
      const distributionPort = await freeLoopbackPort();
      const tokenSecret = `cluster-${randomUUID()}`;
      const nodeA = await clusterNode('127.0.0.2', distributionPort, tokenSecret, []);
      started.push(nodeA);
      const nodeB = await clusterNode('127.0.0.3', distributionPort, tokenSecret, [nodeA.xmpp.nodeName!]);
      started.push(nodeB);
      const front = await FailoverFront.start('127.0.0.4', [nodeB.url, nodeA.url]);
      started.push({ stop: () => front.close() });

      const room = uniqueRoomName('cluster');
      // Bob's join is the first: the room starts on node B, and he owns it. He locks it; the others give the password.
      const bob = await arrive(front.url, room, 'Bob');
      await inTheRoom(bob);
      await lockRoom(bob.page, 'hush');
      const enter = async (name: string): Promise<Person> => {
        const person = await arrive(nodeA.url, room, name);
        await enterPassword(person.page, 'hush');
        await inTheRoom(person);
        return person;
      };
      const alice = await enter('Alice');
      const carol = await enter('Carol');

      await test.step('they chat across the nodes; Bob kicks Carol', async () => {
        await say(bob.page, 'hello from node B');
        await expect(chatLog(alice.page)).toContainText('hello from node B');
        await say(alice.page, 'hello from node A');
        await expect(chatLog(bob.page)).toContainText('hello from node A');
        await kickAndBan(bob.page, 'Carol');
        await expect(carol.page.getByRole('heading', { level: 2, name: 'You were removed from this room' })).toBeVisible();
        await expect(participantEntry(alice.page, 'Carol')).toHaveCount(0);
      });

      await test.step('Alice and Bob hold a call: each sees the other', async () => {
        await joinCall(alice.page);
        await joinCall(bob.page);
        await expectAll([expectDecodingVideo(alice.page, 'Bob'), expectDecodingVideo(bob.page, 'Alice')]);
      });

      // A reload would lose this.
      await bob.page.evaluate(() => Reflect.set(window, '__beforeFailover', true));
      await watchTile(alice.page, 'Bob');
      await watchTile(bob.page, 'Alice');
      // Watched from inside Bob's page: a quick failover can end his outage before a look would find it.
      await watchOutage(bob.page);
      const killedAt = Date.now();
      // Node B dies: its ejabberd SIGKILLed (and kept down), then its gateway gone with its connections.
      await nodeB.killXmpp();
      await nodeB.stop();
      started.splice(started.indexOf(nodeB), 1);

      // Bob's connection went with node B: his page says so until he is back.
      await expectOutageNoticed(bob.page);
      const backMs = await timeUntilBack([alice.page, bob.page], killedAt);
      await test.step('both are back in the room, Bob through node A in the same page, and the call carries on', async () => {
        expect(await bob.page.evaluate(() => Reflect.get(window, '__beforeFailover'))).toBe(true);
        await expect(callButton(alice.page, 'Hang up')).toBeVisible();
        await expect(callButton(bob.page, 'Hang up')).toBeVisible();
        await expectAll([expectDecodingVideo(alice.page, 'Bob'), expectDecodingVideo(bob.page, 'Alice')]);
        await say(bob.page, 'back through node A');
        await expect(chatLog(alice.page)).toContainText('back through node A');
        await say(alice.page, 'welcome back');
        await expect(chatLog(bob.page)).toContainText('welcome back');
      });
      const watched = [
        { pair: 'Alice → Bob', samples: await tileSamples(alice.page, 'Bob') },
        { pair: 'Bob → Alice', samples: await tileSamples(bob.page, 'Alice') },
      ];
      reportFault('ejabberd node B killed under its room (cluster of two)', [
        `both back in the room ${backMs} ms after the kill (Bob reconnected through node A)`,
        videoGapFigure(watched, killedAt),
      ]);
      // The tiles never lost their video while the room moved, and it stayed one video element: the
      // media that flowed before the kill is the media that flows now.
      for (const { pair, samples } of watched) {
        expect(samples.length, `${pair}: samples`).toBeGreaterThan(10);
        expect(samples.filter((sample) => sample.shown === undefined), `${pair}: moments without the video`).toEqual([]);
        expect(new Set(samples.map((sample) => sample.shown)).size, `${pair}: videos shown`).toBe(1);
      }
      // And it kept moving both ways while Bob's page was out of the room, his signalling gone with node B.
      const bobOut = await outageSpan(bob.page);
      expectFramesRoseWithin(watched, bobOut.from, bobOut.to, 'while Bob’s page was out of the room');

      await test.step('the room kept its owner, its lock and its ban', async () => {
        await expect(bob.page.getByRole('button', { name: 'Unlock room' })).toBeVisible();
        const dave = await arrive(front.url, room, 'Dave');
        await expect(dave.page.getByRole('textbox', { name: 'Room password' })).toBeVisible({ timeout: BACK_WITHIN_MS });
        await carol.page.reload();
        await expect(carol.page.getByRole('heading', { level: 2, name: 'You cannot join this room' })).toBeVisible({ timeout: BACK_WITHIN_MS });
      });
    } finally {
      await Promise.all(people.map((person) => person.context.close()));
      for (const server of started.reverse()) await server.stop();
    }
  });
});
