import { execFileSync } from 'node:child_process';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, expectJoined, joinFromHome, openPanel, type Person } from './rooms-people';

/** How the path goes dead. */
export type CutKind =
  /** The network is gone and the browser knows (an unplugged cable, Wi-Fi off): what the person's machine sends fails at once, nothing comes back. */
  | 'unreachable'
  /** The network goes dead without a word (a broken Wi-Fi): every packet either way is lost, nothing fails. */
  | 'silent';

function nft(...args: string[]): void {
  execFileSync('nft', args, { stdio: ['ignore', 'ignore', 'inherit'] });
}

let paths = 0;

/**
 * One person's own path to the gateway, so that their network can be cut for real while the others
 * and the servers go on: their browser reaches the gateway at a loopback address of its own
 * (127.x.y.z: the whole 127/8 is this machine), which nftables forwards (DNAT) to the gateway's
 * address; a cut drops (or refuses) exactly that path's packets, both ways, in the test's own
 * loopback-only network namespace. Every connection of that browser goes this way — the page, its
 * SharedWorker's websocket, fetches, the relay — except WebRTC media between browsers (ICE picks
 * host candidates), which these chat cases do not have.
 */
export class PersonalPath {
  readonly url: string;
  private readonly table: string;
  private readonly match: string[];

  constructor(appUrl: string) {
    const gateway = new URL(appUrl);
    const port = gateway.port;
    paths += 1;
    // An address no other path uses, in this test worker or another one in the same namespace.
    const address = `127.${(process.pid % 250) + 1}.${Math.floor(paths / 250)}.${(paths % 250) + 2}`;
    this.table = `parley_path_${process.pid}_${paths}`;
    this.url = `http://${address}:${port}/`;
    this.match = ['ct', 'original', 'ip', 'daddr', address];
    nft('add', 'table', 'ip', this.table);
    nft('add', 'chain', 'ip', this.table, 'forward_path', '{ type nat hook output priority -100 ; }');
    nft('add', 'chain', 'ip', this.table, 'cut', '{ type filter hook output priority 0 ; }');
    nft('add', 'rule', 'ip', this.table, 'forward_path', 'ip', 'daddr', address, 'tcp', 'dport', port, 'dnat', 'to', `${gateway.hostname}:${port}`);
  }

  cut(kind: CutKind): void {
    if (kind === 'silent') {
      nft('add', 'rule', 'ip', this.table, 'cut', ...this.match, 'drop');
      return;
    }
    // The person's own packets fail at once (no route); the gateway's replies are lost on the way.
    nft('add', 'rule', 'ip', this.table, 'cut', ...this.match, 'ct', 'direction', 'original', 'reject', 'with', 'icmp', 'type', 'admin-prohibited');
    nft('add', 'rule', 'ip', this.table, 'cut', ...this.match, 'ct', 'direction', 'reply', 'drop');
  }

  restore(): void {
    nft('flush', 'chain', 'ip', this.table, 'cut');
  }

  close(): void {
    nft('delete', 'table', 'ip', this.table);
  }
}

let losses = 0;

/**
 * A link too poor for video, in the test's own loopback-only network namespace: every UDP packet
 * one local port sends that is over `bytes` long is lost. Video's packets (near the MTU; a keyframe
 * is many of them) go missing, so its frames stop; audio's, RTCP's and ICE's checks (a few hundred
 * bytes at most) pass, so the connection stays up and the person is still heard.
 */
export class LargePacketLoss {
  private readonly table: string;

  constructor(port: number, bytes = 400) {
    losses += 1;
    this.table = `parley_loss_${process.pid}_${losses}`;
    nft('add', 'table', 'ip', this.table);
    nft('add', 'chain', 'ip', this.table, 'lose', '{ type filter hook output priority 0 ; }');
    nft('add', 'rule', 'ip', this.table, 'lose', 'udp', 'sport', String(port), 'udp', 'length', 'gt', String(bytes), 'drop');
  }

  close(): void {
    nft('delete', 'table', 'ip', this.table);
  }
}

/**
 * The browser's own offline and online events. A loopback namespace cannot produce them (lo never
 * goes down, so Chromium never sees its network change): they are dispatched in each of the
 * person's pages, a named fake of what the operating system's network change makes the browser do.
 */
export async function fakeNetworkChangeEvent(context: BrowserContext, online: boolean): Promise<void> {
  for (const page of context.pages()) await page.evaluate((type) => dispatchEvent(new Event(type)), online ? 'online' : 'offline');
}

/** A person who reaches the servers through `path`: joins from the home page there, opens Chat and People, and waits until in. */
export async function joinThrough(browser: Browser, path: PersonalPath, roomName: string, displayName: string): Promise<Person> {
  const context = await browser.newContext();
  const page: Page = await context.newPage();
  await joinFromHome(page, path.url, roomName, displayName);
  await openPanel(page, 'Chat');
  await expectJoined(page);
  await openPanel(page, 'People');
  await expect(page).toHaveURL(new RegExp(`^${path.url.replace(/[.]/g, '\\.')}`));
  return { displayName, context, page };
}
