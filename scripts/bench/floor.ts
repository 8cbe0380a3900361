// The floor under every client's join: two windows of the same browser on a bare page — one
// RTCPeerConnection, no app, no XMPP — signalling through this process. What the machine and the
// browser take to show a remote camera, timed by the same probe as the clients' joins.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { launchMeteredBrowser, windowOpenedSettled } from './browserCpu';
import { newPerson, waitForRemoteVideos, type ProbedWindow } from './join';

/** A signalling message is an SDP or one candidate: far below this. */
const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * `#sender` captures and offers its camera to whoever says hello; `#newcomer` says hello, captures
 * its own camera as both clients do, and answers. Messages go through `/send/<to>` and
 * `/receive/<me>` (a long poll).
 */
const BARE_PAGE = `<!doctype html><meta charset="utf-8"><title>bare join</title><video autoplay muted playsinline></video><script>
const me = location.hash.slice(1);
const other = me === 'sender' ? 'newcomer' : 'sender';
// One after another: posted side by side, a candidate could overtake the description it belongs to.
let sent = Promise.resolve();
const send = (message) => (sent = sent.then(() => fetch('/send/' + other, { method: 'POST', body: JSON.stringify(message) })));
const receive = async () => JSON.parse(await (await fetch('/receive/' + me)).text());
const pc = new RTCPeerConnection();
pc.onicecandidate = ({ candidate }) => candidate && send({ candidate });
pc.ontrack = ({ track }) => { if (track.kind === 'video') document.querySelector('video').srcObject = new MediaStream([track]); };
(async () => {
  if (me === 'sender') {
    const stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: true });
    for (const track of stream.getTracks()) pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
    window.cameraOn = true;
    await receive();
    await pc.setLocalDescription();
    await send({ description: pc.localDescription });
  } else {
    void send({ hello: true });
    void navigator.mediaDevices.getUserMedia({ audio: true, video: true });
  }
  for (;;) {
    const { description, candidate } = await receive();
    if (description) {
      await pc.setRemoteDescription(description);
      if (description.type === 'offer') { await pc.setLocalDescription(); await send({ description: pc.localDescription }); }
    }
    if (candidate) await pc.addIceCandidate(candidate);
  }
})();
</script>`;

/** Two mailboxes (one per window) of messages and waiting long polls. */
class Mailboxes {
  private readonly boxes = new Map<string, { messages: string[]; waiting: ServerResponse[] }>();

  post(to: string, message: string): void {
    const box = this.box(to);
    const waiting = box.waiting.shift();
    if (waiting) waiting.end(message);
    else box.messages.push(message);
  }

  collect(me: string, response: ServerResponse): void {
    const box = this.box(me);
    const message = box.messages.shift();
    if (message !== undefined) response.end(message);
    else box.waiting.push(response);
  }

  private box(name: string): { messages: string[]; waiting: ServerResponse[] } {
    let box = this.boxes.get(name);
    if (!box) this.boxes.set(name, (box = { messages: [], waiting: [] }));
    return box;
  }
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.on('data', (chunk: Buffer) => {
      body += chunk.toString();
      if (body.length > MAX_MESSAGE_BYTES) request.destroy(new Error('message too large'));
    });
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

/** Serves the bare page and its signalling on 127.0.0.1 for one join. */
async function bareSite(): Promise<{ url: string; close(): void }> {
  const mailboxes = new Mailboxes();
  const server = createServer((request, response) => {
    const [, action, name] = (request.url ?? '/').split('/');
    if (request.method === 'POST' && action === 'send' && name) {
      readBody(request).then(
        (body) => {
          mailboxes.post(name, body);
          response.end();
        },
        () => response.writeHead(413).end(),
      );
    } else if (action === 'receive' && name) {
      mailboxes.collect(name, response);
    } else {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(BARE_PAGE);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** One bare join in a fresh browser, as `timeJoin` times a client's: navigation → the remote video decoded. */
export async function timeBareJoin(): Promise<number> {
  const site = await bareSite();
  const { browser, cpuMs } = await launchMeteredBrowser();
  try {
    const sender = await newPerson(browser);
    await sender.goto(`${site.url}#sender`);
    await sender.waitForFunction(() => (window as unknown as { cameraOn?: boolean }).cameraOn === true);
    const newcomer: Page = await windowOpenedSettled(cpuMs, () => newPerson(browser));
    await newcomer.goto(`${site.url}#newcomer`);
    await waitForRemoteVideos(newcomer, 1);
    return await newcomer.evaluate(() => {
      const probe = (window as unknown as ProbedWindow).__benchJoin;
      return Math.min(...[...probe.firstFrames.values()].map((frame) => frame.at)) - probe.navigatedAt;
    });
  } finally {
    await browser.close();
    site.close();
  }
}
