import type { Stanzas } from 'stanza';
import { describe, expect, it, vi } from 'vitest';
import type { JingleIq } from '../../src/protocol/commands';
import { UNCLAIMED_CALL_HOLD } from '../../src/protocol/constants';
import { BridgeCallSignaling } from '../../src/main-thread/call/BridgeCallSignaling';
import { CallLocksAhead } from '../../src/main-thread/call/CallLocksAhead';
import { callLockName, CallOwnership, type CallLocks } from '../../src/main-thread/call/CallOwnership';

/**
 * Web Locks as a browser keeps them: one holder per name, `ifAvailable` answered with null when it
 * is held, other requests granted in turn as it comes free, a queued request dropped (AbortError)
 * when its signal aborts, and `steal` taking the lock at once, the holder's request rejected with
 * AbortError. A named fake: Node has no navigator.locks.
 */
class BrowserLocks implements CallLocks {
  readonly held = new Set<string>();
  requests = 0;
  private readonly queued = new Map<string, Array<() => void>>();
  /** Per name, what rejects the current holder's request when its lock is stolen. */
  private readonly holders = new Map<string, () => void>();

  async request(name: string, options: Parameters<CallLocks['request']>[1], granted: (lock: unknown) => Promise<void> | undefined): Promise<unknown> {
    this.requests += 1;
    if (options.steal) this.holders.get(name)?.();
    else if (this.held.has(name)) {
      if (options.ifAvailable) return granted(null);
      await new Promise<void>((turn, reject) => {
        this.queued.set(name, [...(this.queued.get(name) ?? []), turn]);
        options.signal?.addEventListener('abort', () => {
          this.queued.set(name, (this.queued.get(name) ?? []).filter((other) => other !== turn));
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    }
    this.held.add(name);
    return new Promise((resolve, reject) => {
      let over = false;
      const stolen = (): void => {
        over = true;
        reject(new DOMException('stolen', 'AbortError'));
      };
      this.holders.set(name, stolen);
      void Promise.resolve(granted({ name })).then((result) => {
        if (over) return;
        over = true;
        this.held.delete(name);
        this.holders.delete(name);
        this.queued.get(name)?.shift()?.();
        resolve(result);
      });
    });
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const ROOM = 'room@rooms.example';

describe('Call locks taken ahead: "Join call" clicked before the call is up takes the call lock as the room’s address comes, and the Call adopts it (issue 14, the join path)', () => {
  it('a free lock taken ahead is the Call’s at its first ask, without asking the browser again, and held until the Call lets go', async () => {
    const browser = new BrowserLocks();
    const locks = new CallLocksAhead(browser);
    expect(await locks.takeAhead(callLockName(ROOM))).toBe(true);
    expect(browser.held.has(callLockName(ROOM))).toBe(true);

    const ownership = new CallOwnership(ROOM, locks);
    expect(await ownership.acquire()).toBe(true);
    expect(browser.requests).toBe(1);
    await settle();
    expect(browser.held.has(callLockName(ROOM))).toBe(true);
    ownership.release();
    await settle();
    expect(browser.held.has(callLockName(ROOM))).toBe(false);
  });

  it('a lock another tab holds is not taken ahead: the Call hears it is held elsewhere and waits for it as ever', async () => {
    const browser = new BrowserLocks();
    let otherTabLetsGo!: () => void;
    void browser.request(callLockName(ROOM), {}, () => new Promise<void>((release) => (otherTabLetsGo = release)));
    const locks = new CallLocksAhead(browser);
    expect(await locks.takeAhead(callLockName(ROOM))).toBe(false);

    const heldElsewhere = vi.fn();
    const acquired = new CallOwnership(ROOM, locks).acquire(heldElsewhere);
    await settle();
    expect(heldElsewhere).toHaveBeenCalledOnce();
    otherTabLetsGo();
    expect(await acquired).toBe(true);
  });

  it('a lock taken ahead and given up (the view went first) comes free, and no later ask adopts it', async () => {
    const browser = new BrowserLocks();
    const locks = new CallLocksAhead(browser);
    expect(await locks.takeAhead(callLockName(ROOM))).toBe(true);
    locks.giveUpAhead(callLockName(ROOM));
    await settle();
    expect(browser.held.has(callLockName(ROOM))).toBe(false);
    expect(await new CallOwnership(ROOM, locks).acquire()).toBe(true);
    expect(browser.requests).toBe(2);
  });
});

describe('"Move call here": a tab waiting for the call lock takes it from the tab of yours that holds it, and that tab hears so', () => {
  it('the holder, its lock taken ahead by "Join call", hears it was taken; the tab that took it holds it until it lets go, and the holder, waiting again, gets it then', async () => {
    const browser = new BrowserLocks();
    const holderLocks = new CallLocksAhead(browser);
    expect(await holderLocks.takeAhead(callLockName(ROOM))).toBe(true);
    const taken = vi.fn();
    const holder = new CallOwnership(ROOM, holderLocks, taken);
    expect(await holder.acquire()).toBe(true);

    const heldElsewhere = vi.fn();
    const mover = new CallOwnership(ROOM, new CallLocksAhead(browser));
    const acquired = mover.acquire(heldElsewhere);
    await settle();
    expect(heldElsewhere).toHaveBeenCalledOnce();
    mover.takeOver();
    expect(await acquired).toBe(true);
    await settle();
    expect(taken).toHaveBeenCalledOnce();

    // The tab it was taken from waits for it again, and has it once the mover lets go.
    const again = new CallOwnership(ROOM, holderLocks).acquire();
    await settle();
    mover.release();
    expect(await again).toBe(true);
  });

  it('a holder that asked for the lock itself hears it was taken too; one that let go first hears nothing', async () => {
    const browser = new BrowserLocks();
    const taken = vi.fn();
    const holder = new CallOwnership(ROOM, browser, taken);
    expect(await holder.acquire()).toBe(true);
    const mover = new CallOwnership(ROOM, browser);
    const acquired = mover.acquire();
    await settle();
    mover.takeOver();
    expect(await acquired).toBe(true);
    await settle();
    expect(taken).toHaveBeenCalledOnce();

    const releasedFirst = vi.fn();
    const next = new CallOwnership(ROOM, browser, releasedFirst);
    const nextAcquired = next.acquire();
    mover.release();
    expect(await nextAcquired).toBe(true);
    next.release();
    await settle();
    expect(releasedFirst).not.toHaveBeenCalled();
  });
});

/** A tab's bridge to the session, recording the claims it sends and the requests it gives back, with its BridgeCallSignaling. */
function tabBridge() {
  const claims: string[] = [];
  const returned: string[] = [];
  /** What the tab's sessions sent through the session. */
  const sent: Stanzas.IQ[] = [];
  const bridge = {
    tabId: 'tab-1',
    jingleHandler: undefined as ((roomAddress: string, iq: JingleIq) => void) | undefined,
    actions: {
      jingle: {
        claimCall: async (tabId: string, roomAddress: string) => void claims.push(`${tabId} ${roomAddress}`),
        releaseCall: async () => undefined,
        send: async (iq: Stanzas.IQ) => void sent.push(iq),
        returnRequest: async (tabId: string, roomAddress: string, iq: JingleIq) => void returned.push(`${tabId} ${roomAddress} ${iq.jingle.action} ${iq.jingle.sid}`),
      },
    },
  };
  const signaling = new BridgeCallSignaling(bridge as unknown as ConstructorParameters<typeof BridgeCallSignaling>[0]);
  return { bridge, signaling, claims, returned, sent };
}

describe('A call claimed ahead keeps the Jingle requests that come for it until its Call claims it, then hands them over in order (issue 14, the join path)', () => {
  it('requests before the Call wait; the Call gets them after its start, then every later one directly', async () => {
    const { bridge, signaling, claims } = tabBridge();
    const request = (sid: string) => ({ type: 'set', id: sid, from: `${ROOM}/alice`, jingle: { action: 'session-initiate', sid } }) as unknown as JingleIq;

    await signaling.claimAhead(ROOM);
    expect(claims).toEqual([`tab-1 ${ROOM}`]);
    expect(signaling.claimedAhead(ROOM)).toBe(true);
    bridge.jingleHandler?.(ROOM, request('s1'));
    bridge.jingleHandler?.(ROOM, request('s2'));

    const received: string[] = [];
    const claimed = signaling.claimCall(ROOM, (iq) => received.push(iq.id ?? ''));
    expect(received).toEqual([]);
    await claimed;
    expect(received).toEqual(['s1', 's2']);
    expect(signaling.claimedAhead(ROOM)).toBe(false);
    bridge.jingleHandler?.(ROOM, request('s3'));
    expect(received).toEqual(['s1', 's2', 's3']);
  });

  /** `count` requests from `sender`: the offer of session `sid`, then the candidates trickled one transport-info each (SimpleWebRTC 1.30.3). */
  const offerWithCandidates = (sender: string, sid: string, count: number) =>
    Array.from({ length: count }, (_, index) => ({ type: 'set', id: `${sid}-${index}`, from: `${ROOM}/${sender}`, jingle: { action: index === 0 ? 'session-initiate' : 'transport-info', sid } }) as unknown as JingleIq);

  it('joining a call of five, some trickling every candidate: all 40 requests that came before the Call reach it, in order, none dropped', async () => {
    const { bridge, signaling, sent } = tabBridge();
    const requests = ['bob', 'carol', 'dave', 'erin'].flatMap((sender) => offerWithCandidates(sender, `${sender}-camera`, 10));
    expect(requests).toHaveLength(40);

    await signaling.claimAhead(ROOM);
    for (const iq of requests) bridge.jingleHandler?.(ROOM, iq);
    const received: string[] = [];
    await signaling.claimCall(ROOM, (iq) => received.push(iq.id ?? ''));
    expect(received).toEqual(requests.map((iq) => iq.id));
    expect(sent).toEqual([]);
  });

  it('past what the session holds for a room, a request is answered with a wait / resource-constraint error, not dropped unanswered', async () => {
    const { bridge, signaling, sent } = tabBridge();
    const held = UNCLAIMED_CALL_HOLD.sessionsPerRoom * UNCLAIMED_CALL_HOLD.requestsPerSession;
    const requests = offerWithCandidates('mallory', 'flood', held + 1);

    await signaling.claimAhead(ROOM);
    for (const iq of requests) bridge.jingleHandler?.(ROOM, iq);
    await settle();
    const past = requests[held]!;
    expect(sent).toEqual([{ type: 'error', id: past.id, to: past.from, error: expect.objectContaining({ type: 'wait', condition: 'resource-constraint' }) }]);
    const received: string[] = [];
    await signaling.claimCall(ROOM, (iq) => received.push(iq.id ?? ''));
    expect(received).toEqual(requests.slice(0, held).map((iq) => iq.id));
  });
});

describe('A Jingle request for a call this tab has let go goes back to the session, which answers it: hanging up leaves no peer’s request unanswered', () => {
  it('after the Call’s release, a request the session had already routed here is returned, not dropped; while the Call runs, none is', async () => {
    const { bridge, signaling, returned } = tabBridge();
    const terminate = (sid: string) => ({ type: 'set', id: sid, from: `${ROOM}/alice`, jingle: { action: 'session-terminate', sid, reason: { condition: 'success' } } }) as unknown as JingleIq;
    const received: string[] = [];

    await signaling.claimCall(ROOM, (iq) => received.push(iq.jingle.sid));
    bridge.jingleHandler?.(ROOM, terminate('while-running'));
    expect(received).toEqual(['while-running']);
    expect(returned).toEqual([]);

    await signaling.releaseCall(ROOM);
    bridge.jingleHandler?.(ROOM, terminate('crossed-the-hang-up'));
    expect(received).toEqual(['while-running']);
    expect(returned).toEqual([`tab-1 ${ROOM} session-terminate crossed-the-hang-up`]);
  });
});
