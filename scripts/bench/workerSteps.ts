// What each person's shared worker does on the join path — its config and room lookups, its
// login, the presences and Jingle it sends and receives — stamped inside the worker itself. Playwright
// does not reach shared workers, so the browser's DevTools protocol attaches to each as it starts
// and installs the probe before the worker has opened its websocket.
import type { Browser, CDPSession } from '@playwright/test';
import { AttachedWorker } from '../../tests/support/attachedWorker';

/**
 * A probe's statement (its `mark` in scope) that stamps `step` the first time its context posts
 * Comlink's call of `method` carrying a session-initiate: an offer crossing between a page and its
 * shared worker, in whichever direction `method` goes.
 */
export function stampOfferPosted(method: string, step: string): string {
  return `(() => {
    const postMessage = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (message, ...rest) {
      const path = message?.path;
      if (Array.isArray(path) && path[path.length - 1] === ${JSON.stringify(method)} && JSON.stringify(message.argumentList ?? []).includes('session-initiate')) mark(${JSON.stringify(step)});
      return postMessage.call(this, message, ...rest);
    };
  })();`;
}

/**
 * Installed in a shared worker: stamps (epoch ms) the first time each step happens, in
 * `self.__benchWorkerSteps`. Frames are read as the XML they carry; the websocket's
 * constructor is wrapped on the global (the worker's first script opens the XMPP websocket with it,
 * before StanzaJS loads) with a listener of what it receives on each socket, its `send` on the
 * prototype, `fetch` on the global.
 */
const WORKER_PROBE = `(() => {
  self.__benchWorkerSteps = { 'session worker started': performance.timeOrigin };
  const mark = (step) => {
    const steps = self.__benchWorkerSteps;
    if (!(step in steps)) steps[step] = performance.timeOrigin + performance.now();
  };
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (...args) { mark('stored identity asked'); return open.apply(this, args); };
  const originalFetch = self.fetch;
  self.fetch = function (input, ...rest) {
    const path = new URL(String(input?.url ?? input), self.location.href).pathname;
    if (path === '/api/config') mark('config asked');
    if (path === '/api/room-config') mark('room address asked');
    return originalFetch.call(this, input, ...rest).then((response) => {
      if (path === '/api/config') mark('config fetched');
      if (path === '/api/room-config') mark('room address looked up');
      return response;
    });
  };
  // What the tabs ask of the session, as it arrives: Comlink's listener is wrapped as the port adds it.
  const asked = { attach: 'a tab’s attach arrives at the worker', openRoom: 'the room’s opening arrives at the worker', joinCall: 'the call’s join arrives at the worker', claimCall: 'the call’s claim arrives at the worker' };
  const addListener = MessagePort.prototype.addEventListener;
  MessagePort.prototype.addEventListener = function (type, listener, ...rest) {
    if (type !== 'message' || typeof listener !== 'function') return addListener.call(this, type, listener, ...rest);
    return addListener.call(this, type, function (event) {
      const path = event.data?.path;
      const method = Array.isArray(path) ? path[path.length - 1] : undefined;
      // "Join call" clicked before the call is up asks for the call by the room's name.
      const joinsCall = method === 'openRoom' && JSON.stringify(event.data.argumentList ?? []).includes('"autoJoinCall":true');
      const step = joinsCall ? asked.joinCall : asked[method];
      if (step) mark(step);
      return listener.call(this, event);
    }, ...rest);
  };
  // The offer as the worker hands it to the tab that claimed the call (Comlink's call of its Jingle listener).
  ${stampOfferPosted('jingle', 'offer handed to the page')}
  const sent = (xml) => {
    if (/^<presence[^>]*>?/.test(xml) && !/^<presence[^>]* to=/.test(xml)) mark('logged in');
    const toRoom = /^<presence[^>]* to=/.test(xml);
    const call = toRoom && xml.includes('http://andyet.net/xmlns/mmuc') && xml.includes('<conf');
    if (toRoom && xml.includes('http://jabber.org/protocol/muc"')) mark(call ? 'join presence sent, with the call' : 'join presence sent');
    if (call) mark('call presence sent');
    if (/action=["']session-initiate["']/.test(xml)) mark('offer leaves the worker');
    if (/action=["']session-accept["']/.test(xml)) mark('answer leaves the worker');
  };
  const received = (xml) => {
    if (xml.startsWith('<success')) mark('authenticated');
    if (xml.startsWith('<iq') && xml.includes('urn:ietf:params:xml:ns:xmpp-bind')) mark('bound');
    if (xml.startsWith('<presence') && /code=["']110["']/.test(xml)) mark('self-presence received');
    // Another occupant's room presence: not the account's own presence, nor a self-presence (status 110).
    const other = xml.startsWith('<presence') && xml.includes('http://jabber.org/protocol/muc#user') && !/code=["']110["']/.test(xml);
    if (other) mark('a room presence received');
    if (other && xml.includes('<conf')) mark('a call presence received');
    if (/action=["']session-initiate["']/.test(xml)) mark('offer arrives at the worker');
    if (/action=["']session-accept["']/.test(xml)) mark('answer arrives at the worker');
  };
  // The worker's first script opens the XMPP websocket through the global constructor before StanzaJS
  // has loaded, and logs in on it ahead; StanzaJS's client takes it over by setting its open handler.
  // What the server sends is read as it arrives, whoever's handler it then reaches.
  self.WebSocket = new Proxy(WebSocket, {
    construct(target, args, newTarget) {
      mark('websocket asked');
      const socket = Reflect.construct(target, args, newTarget);
      socket.addEventListener('open', () => mark('websocket open'));
      socket.addEventListener('message', (event) => { if (typeof event.data === 'string') received(event.data); });
      return socket;
    },
  });
  const onopen = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onopen');
  Object.defineProperty(WebSocket.prototype, 'onopen', {
    configurable: true,
    get() { return onopen.get.call(this); },
    set(handler) { mark('the XMPP client takes the websocket'); onopen.set.call(this, handler); },
  });
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    if (typeof data === 'string') sent(data);
    return send.call(this, data);
  };
})()`;

/** Every shared worker of `browser` from now on, each with the probe installed as it starts, in the order they started. */
export class SharedWorkerSteps {
  private readonly workers: Promise<AttachedWorker>[] = [];

  private constructor(private readonly session: CDPSession) {
    session.on('Target.targetCreated', ({ targetInfo }) => {
      if (targetInfo.type === 'shared_worker') this.workers.push(this.attach(targetInfo.targetId));
    });
  }

  static async watch(browser: Browser): Promise<SharedWorkerSteps> {
    const session = await browser.newBrowserCDPSession();
    const steps = new SharedWorkerSteps(session);
    await session.send('Target.setDiscoverTargets', { discover: true });
    return steps;
  }

  /** Forgets what the `index`-th shared worker has stamped so far: its steps from now on are stamped anew. */
  async restart(index: number): Promise<void> {
    await (await this.workers[index])?.evaluate('self.__benchWorkerSteps = {}');
  }

  /** The stamps of the `index`-th shared worker started (epoch ms by step). */
  async stepsOf(index: number): Promise<Record<string, number>> {
    const worker = await this.workers[index];
    return worker ? ((await worker.evaluate<Record<string, number> | undefined>('self.__benchWorkerSteps')) ?? {}) : {};
  }

  private async attach(targetId: string): Promise<AttachedWorker> {
    const worker = await AttachedWorker.attach(this.session, targetId);
    await worker.evaluate(WORKER_PROBE);
    return worker;
  }
}
