// What the call cases of the fault suite share (faults-call.spec.ts on the relay, faults-call-direct.spec.ts
// on direct connections): the people of a call, and the tiles they watch through a fault.
import type { Page } from '@playwright/test';
import { RELAY_CHROMIUM_ARGS, RELAY_LAUNCH_OPTIONS } from '../../playwright.config';
import type { RunningParley } from '../../server/Parley';
import { CAMERA_STOP } from '../../src/protocol/clientDefaults';
import { callButton, expectDecodingVideo, expectHearing, joinCallWithCamera, tile } from './call-ui-people';
import { videoSendingPorts } from './call-watch';
import { BACK_WITHIN_MS, outageSpan, timeUntilBackAfterReachable } from './faults';
import { LargePacketLoss } from './network-cut';
import { expect, uniqueRoomName, type People, type Person } from './rooms-people';
import { expectFramesRoseWithin, tileSamples, watchTile, type ShownSample } from './video-continuity';

/**
 * Chromium for the call cases: a fake camera per person (FAKE_CAMERAS) and, past Chromium's own limit
 * (from the machine's memory), a renderer per tab as on a roomier machine: a new tab otherwise shares
 * a renderer of the same site with another tab, and a crash takes both.
 */
export const CALL_FAULTS_LAUNCH = { ...RELAY_LAUNCH_OPTIONS, args: [...RELAY_CHROMIUM_ARGS, '--renderer-process-limit=100'] };

/** The people of one call, each on a fake camera of their own (playwright.config FAKE_CAMERAS). */
export async function inACall(people: People, label: string, names: readonly string[]): Promise<Person[]> {
  const room = uniqueRoomName(label);
  const everyone: Person[] = [];
  for (const name of names) everyone.push(await people.join(room, name));
  for (const [index, person] of everyone.entries()) await joinCallWithCamera(person.page, index);
  return everyone;
}

/** Each person watches the tile of the next one round the circle (Alice → Bob → … → Alice). */
function watchedPairs(everyone: readonly Person[]): Array<{ viewer: Person; shown: Person }> {
  return everyone.map((viewer, index) => ({ viewer, shown: everyone[(index + 1) % everyone.length]! }));
}

export async function watchTiles(everyone: readonly Person[]): Promise<void> {
  for (const { viewer, shown } of watchedPairs(everyone)) await watchTile(viewer.page, shown.displayName);
}

/** Per watched pair, what the viewer's tile of the other showed since `watchTiles`. */
export async function watchedSamples(everyone: readonly Person[]): Promise<Array<{ pair: string; samples: ShownSample[] }>> {
  return Promise.all(
    watchedPairs(everyone).map(async ({ viewer, shown }) => ({ pair: `${viewer.displayName} → ${shown.displayName}`, samples: await tileSamples(viewer.page, shown.displayName) })),
  );
}

/**
 * Each watched tile kept moving while its viewer's page was out of the room, from the first to the
 * last look of `watchOutage` (run in every page before the fault) that saw its Room state banner:
 * the media of a call does not go through the chat server.
 */
export async function expectVideoMovedWhileOut(everyone: readonly Person[]): Promise<void> {
  const watched = await watchedSamples(everyone);
  for (const [index, { viewer }] of watchedPairs(everyone).entries()) {
    const out = await outageSpan(viewer.page);
    expectFramesRoseWithin([watched[index]!], out.from, out.to, `while ${viewer.displayName}’s page was out of the room`);
  }
}

/** The watched samples from `from` to `to` only. */
export function samplesWithin(watched: ReadonlyArray<{ pair: string; samples: ShownSample[] }>, from: number, to: number): Array<{ pair: string; samples: ShownSample[] }> {
  return watched.map(({ pair, samples }) => ({ pair, samples: samples.filter((sample) => sample.at >= from && sample.at <= to) }));
}

/** Both tabs say the connection is lost (the chat server is down for them). */
export async function expectOutageShown(pages: readonly Page[]): Promise<void> {
  for (const page of pages) await expect(page.getByRole('status', { name: 'Room state' })).toBeVisible({ timeout: BACK_WITHIN_MS });
}


/**
 * `turner` turns their camera off while the chat server is down: every other person sees them
 * without video (their picture, not a black tile) during the outage and still once it is back, and
 * their video again once they start it. Then the other way: turned off while the server is up (their
 * mute reaches everyone), and on again during a second outage: everyone sees their video while the
 * server is still down, and still once it is back. Returns the figures to print.
 */
export async function expectCameraSeenThroughOutages(parley: RunningParley, everyone: readonly Person[], turner: Person): Promise<string[]> {
  const viewers = everyone.filter((person) => person !== turner);
  const pages = everyone.map((person) => person.page);
  const seenOff = (viewer: Person, when: string) =>
    expect(tile(viewer.page, turner.displayName).locator('video'), `${viewer.displayName} sees ${turner.displayName} without video ${when}`).toHaveCount(0);
  const seenOn = (viewer: Person) => expectDecodingVideo(viewer.page, turner.displayName);
  /** The chat server down, `button` clicked: every viewer sees it so while it is down and once it is back. */
  const throughOutage = async (button: 'Stop camera' | 'Start camera', seen: (viewer: Person, when: string) => Promise<void>) => {
    await parley.killXmpp();
    await expectOutageShown(pages);
    const clickedAt = Date.now();
    await callButton(turner.page, button).click();
    for (const viewer of viewers) await seen(viewer, 'while signalling is down');
    await expectOutageShown(viewers.map((viewer) => viewer.page));
    const shownMs = Date.now() - clickedAt;
    const restartedAt = Date.now();
    await parley.restartXmpp();
    const back = await timeUntilBackAfterReachable(pages, restartedAt, () => parley.xmppUpSince);
    for (const viewer of viewers) await seen(viewer, 'once back');
    return { shownMs, backMs: back.afterReachable };
  };

  const off = await throughOutage('Stop camera', seenOff);
  await callButton(turner.page, 'Start camera').click();
  for (const viewer of viewers) await seenOn(viewer);

  // Off with the server up (their mute says it) a while before it goes down — long enough for its
  // frames to be seen standing still, which a muted SimpleWebRTC 1.30.3 camera's never do — and on while it is down.
  await callButton(turner.page, 'Stop camera').click();
  for (const viewer of viewers) await seenOff(viewer, 'once their mute has reached them');
  await turner.page.waitForTimeout(CAMERA_STOP.stoppedAfterMs + 2 * CAMERA_STOP.checkIntervalMs);
  const on = await throughOutage('Start camera', seenOn);
  return [
    `the others see ${turner.displayName} without video ${off.shownMs} ms after the camera was turned off`,
    `every tab back in its room ${off.backMs} ms after the server was reachable again`,
    `the others see ${turner.displayName}'s video ${on.shownMs} ms after the camera, off before the outage, was turned on`,
    `every tab back in its room ${on.backMs} ms after the server was reachable again`,
  ];
}

/** The words a tile shows while its person's video stalls on the way (TileStall). */
const VIDEO_PAUSED = 'Video paused: poor connection';

/**
 * For a while the packets of `sender`'s video are lost, on every connection of theirs that sends
 * video (their page ran watchConnections before the call), not their audio's: `sender` is told that
 * their connection loses much of the video they send, with their camera to turn off; each viewer's
 * tile of them says the video is paused and dims its last frame, while the connection stays up (no
 * "Reconnecting…", their camera not shown off) and they are still heard; `sender` sees the others
 * as ever. Once the packets pass again the words and the dimming go and the video plays.
 */
export async function expectVideoStallShown(sender: Person, viewers: readonly Person[]): Promise<void> {
  const senderTile = (viewer: Person) => tile(viewer.page, sender.displayName);
  const dimmed = (viewer: Person) => senderTile(viewer).locator('video').evaluate((video) => getComputedStyle(video).filter);
  const sendLoss = sender.page.locator('.call-send-loss');
  for (const viewer of viewers) {
    await expect(senderTile(viewer).getByText(VIDEO_PAUSED)).toHaveCount(0);
    expect(await dimmed(viewer)).toBe('none');
  }
  await expect(sendLoss).toHaveCount(0);
  const ports = await videoSendingPorts(sender.page);
  expect(ports.length, `${sender.displayName}'s connections that send video`).toBeGreaterThan(0);
  const losses = ports.map((port) => new LargePacketLoss(port));
  try {
    for (const viewer of viewers) {
      await expect(senderTile(viewer).getByText(VIDEO_PAUSED)).toBeVisible({ timeout: 15_000 });
      await expect.poll(() => dimmed(viewer)).not.toBe('none');
      await expect(senderTile(viewer)).not.toContainText('Reconnecting');
      await expect(senderTile(viewer).locator('video')).toHaveCount(1);
      await expectHearing(viewer.page, sender.displayName);
      await expect(tile(sender.page, viewer.displayName).getByText(VIDEO_PAUSED)).toHaveCount(0);
    }
    // The sender's own reads are slower to decide (SEND_LOSS): by then the congestion control may
    // have got a trickle of small frames through, but what they send is still mostly lost.
    await expect(sendLoss).toContainText('Your connection is losing much of the video you send: others may see it frozen. Turning your camera off keeps your voice clearer.', { timeout: 25_000 });
    await expect(sendLoss.getByRole('button', { name: 'Turn camera off' })).toBeVisible();
  } finally {
    for (const loss of losses) loss.close();
  }
  await expect(sendLoss).toHaveCount(0, { timeout: 25_000 });
  for (const viewer of viewers) {
    await expect(senderTile(viewer).getByText(VIDEO_PAUSED)).toHaveCount(0, { timeout: 15_000 });
    await expectDecodingVideo(viewer.page, sender.displayName);
    await expect.poll(() => dimmed(viewer)).toBe('none');
  }
}
