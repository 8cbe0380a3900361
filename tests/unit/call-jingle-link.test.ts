import type { Stanzas } from 'stanza';
import { Session, SessionManager } from 'stanza/jingle';
import { describe, expect, it, vi } from 'vitest';
import type { CallSignaling } from '../../src/main-thread/call/CallSignaling';
import { CallOwnership, callLockName, type CallLocks } from '../../src/main-thread/call/CallOwnership';
import { JingleLink } from '../../src/main-thread/call/JingleLink';
import { flushMicrotasks } from '../support/ManualClock';

function signalingAnswering(answer: (iq: Stanzas.IQ) => Promise<Stanzas.IQ | undefined>): CallSignaling & { sent: Stanzas.IQ[] } {
  const sent: Stanzas.IQ[] = [];
  return {
    sent,
    send: (iq) => {
      sent.push(iq);
      return answer(iq);
    },
    claimCall: async () => {},
    releaseCall: async () => {},
  };
}

const logger = { info: vi.fn(), error: vi.fn() };
const request = { type: 'set' as const, id: 'q1', to: 'room@muc/b', jingle: { sid: 's1', action: 'session-terminate' as const } };

describe('JingleLink: the jingle plugin wiring, split across threads', () => {
  it("feeds the peer's answer back into the manager with the session id", async () => {
    const manager = new SessionManager({});
    const process = vi.spyOn(manager, 'process');
    const signaling = signalingAnswering(async () => ({ type: 'result', id: 'q1', from: 'room@muc/b' }));
    new JingleLink(manager, signaling, logger);
    manager.emit('send', request);
    await flushMicrotasks();
    expect(signaling.sent).toEqual([request]);
    expect(process).toHaveBeenCalledWith({ type: 'result', id: 'q1', from: 'room@muc/b', jingle: { sid: 's1' } });
  });

  it("feeds the peer's error IQ back too", async () => {
    const manager = new SessionManager({});
    const process = vi.spyOn(manager, 'process');
    const error = { type: 'error' as const, id: 'q1', from: 'room@muc/b', error: { type: 'cancel' as const, condition: 'item-not-found' as const, jingleError: 'unknown-session' as const } };
    new JingleLink(manager, signalingAnswering(() => Promise.reject(error)), logger);
    manager.emit('send', request);
    await flushMicrotasks();
    expect(process).toHaveBeenCalledWith({ ...error, jingle: { ...request.jingle } });
  });

  it('only logs a failure that is no answer from the peer (not connected, timeout)', async () => {
    const manager = new SessionManager({});
    const process = vi.spyOn(manager, 'process');
    new JingleLink(manager, signalingAnswering(() => Promise.reject(new Error('not connected'))), logger);
    manager.emit('send', request);
    await flushMicrotasks();
    expect(process).not.toHaveBeenCalled();
    expect(logger.error).toHaveBeenCalledWith('Jingle session-terminate not sent: not connected');
  });

  it('sends our answers to routed requests without waiting for anything back', async () => {
    const manager = new SessionManager({});
    const process = vi.spyOn(manager, 'process');
    const signaling = signalingAnswering(async () => undefined);
    new JingleLink(manager, signaling, logger);
    manager.emit('send', { type: 'result', id: 'r1', to: 'room@muc/b' });
    await flushMicrotasks();
    expect(signaling.sent).toEqual([{ type: 'result', id: 'r1', to: 'room@muc/b' }]);
    expect(process).not.toHaveBeenCalled();
  });

  it('routes requests the worker delivers into the manager', () => {
    const manager = new SessionManager({});
    const process = vi.spyOn(manager, 'process').mockImplementation(() => {});
    const link = new JingleLink(manager, signalingAnswering(async () => undefined), logger);
    const incoming = { ...request, from: 'room@muc/b', to: 'me@host/res' };
    link.receive(incoming);
    expect(process).toHaveBeenCalledWith(incoming);
  });
});

/** A session of ours whose session-initiate is on its way (StanzaJS's base session: what the link does is the same for every kind). */
function offering(manager: SessionManager, sid: string): Session {
  const session = manager.addSession(new Session({ parent: manager, sid, peerID: 'room@muc/b', initiator: true }));
  session.state = 'pending';
  session.send('session-initiate', { contents: [] });
  return session;
}

/** Each session's end as the manager reports it: the session, its reason, and whether a session-terminate went. */
function endsOf(manager: SessionManager, signaling: { sent: Stanzas.IQ[] }): Array<{ session: unknown; condition: string | undefined; text: string | undefined; said: boolean }> {
  const ends: Array<{ session: unknown; condition: string | undefined; text: string | undefined; said: boolean }> = [];
  manager.on('terminated', (session: Session, reason: Stanzas.JingleReason | undefined) => {
    const said = signaling.sent.some((iq) => (iq as { jingle?: Stanzas.Jingle }).jingle?.action === 'session-terminate');
    ends.push({ session, condition: reason?.condition, text: reason?.text, said });
  });
  return ends;
}

describe('JingleLink: an offer refused or never answered ends its session as a failure, said to the peer (SPEC §4’s hold, then offered anew), unless another session has taken its sid since', () => {
  const refusal = (error: Stanzas.StanzaError, from?: string) => () => Promise.reject({ type: 'error', id: 'q', ...(from ? { from } : {}), error });

  it('failed-application for an error answer, busy for one to wait, timeout for none', async () => {
    const cases: Array<[Stanzas.StanzaError, string | undefined, { condition: string; text?: string }]> = [
      [{ type: 'cancel', condition: 'service-unavailable' }, 'room@muc/b', { condition: 'failed-application', text: 'service-unavailable' }],
      [{ type: 'wait', condition: 'resource-constraint' }, 'room@muc/b', { condition: 'busy', text: 'resource-constraint' }],
      [{ condition: 'timeout' as Stanzas.StanzaError['condition'] }, undefined, { condition: 'timeout' }],
    ];
    for (const [error, from, reason] of cases) {
      const manager = new SessionManager({});
      const signaling = signalingAnswering(refusal(error, from));
      const ends = endsOf(manager, signaling);
      new JingleLink(manager, signaling, logger);
      const session = offering(manager, 's1');
      await flushMicrotasks();
      expect(ends).toEqual([{ session, condition: reason.condition, text: reason.text, said: true }]);
    }
  });

  it('a session made anew under the sid meanwhile (a relay consumer re-made under its id) is left alone when the old offer’s answer comes', async () => {
    const manager = new SessionManager({});
    const offers: Array<(answer: unknown) => void> = [];
    const isOffer = (iq: Stanzas.IQ) => (iq as { jingle?: Stanzas.Jingle }).jingle?.action === 'session-initiate';
    const signaling = signalingAnswering((iq) => (isOffer(iq) ? new Promise((_resolve, reject) => offers.push(reject)) : Promise.resolve(undefined)));
    const ends = endsOf(manager, signaling);
    new JingleLink(manager, signaling, logger);
    const old = offering(manager, 's1');
    old.end('failed-transport', true);
    const renewed = offering(manager, 's1');
    offers[0]?.({ type: 'error', id: 'q', from: 'room@muc/b', error: { type: 'cancel', condition: 'item-not-found' } });
    await flushMicrotasks();
    expect(ends.map((end) => end.session)).toEqual([old]);
    expect(renewed.state).toBe('pending');
  });

  it('not after a lost connection (no answer at all): the catch-up after the outage offers anew what went unanswered', async () => {
    const manager = new SessionManager({});
    const signaling = signalingAnswering(() => Promise.reject(new Error('Not connected')));
    const ends = endsOf(manager, signaling);
    new JingleLink(manager, signaling, logger);
    const session = offering(manager, 's1');
    await flushMicrotasks();
    expect(ends).toEqual([]);
    expect(session.state).toBe('pending');
  });
});

/** A lock manager with one lock name at a time, granting in request order (as Web Locks do); `ifAvailable` is answered with null while it is held or asked for. */
class FakeLocks implements CallLocks {
  /** Each request: the lock's name, and whether it asked only if available. */
  readonly requests: Array<{ name: string; ifAvailable: boolean }> = [];
  private held = Promise.resolve();
  private holders = 0;

  request(name: string, options: { signal?: AbortSignal; ifAvailable?: boolean }, granted: (lock: unknown) => Promise<void> | undefined): Promise<unknown> {
    this.requests.push({ name, ifAvailable: options.ifAvailable === true });
    if (options.ifAvailable && this.holders > 0) return Promise.resolve(granted(null));
    this.holders += 1;
    const previous = this.held;
    let release = (): void => {};
    this.held = new Promise<void>((resolve) => (release = resolve));
    return previous.then(async () => {
      try {
        if (options.signal?.aborted) throw new DOMException('aborted', 'AbortError');
        return await granted({ name });
      } finally {
        this.holders -= 1;
        release();
      }
    });
  }
}

describe('CallOwnership: one tab per room runs the call', () => {
  it('holds parley:call:<build>:<room> until released; a second tab waits, then takes over', async () => {
    const locks = new FakeLocks();
    const first = new CallOwnership('room@muc', locks);
    const second = new CallOwnership('room@muc', locks);
    expect(await first.acquire()).toBe(true);
    let secondHeld = false;
    const secondAcquired = second.acquire().then((held) => (secondHeld = held));
    await flushMicrotasks();
    expect(secondHeld).toBe(false);
    first.release();
    await secondAcquired;
    expect(secondHeld).toBe(true);
    expect(locks.requests.map((request) => request.name)).toEqual([callLockName('room@muc'), callLockName('room@muc'), callLockName('room@muc')]);
  });

  it('a free lock takes one request, asked only if available (issue 14: one lock round trip after the click); a held one is said so, then waited for', async () => {
    const locks = new FakeLocks();
    const first = new CallOwnership('room@muc', locks);
    const second = new CallOwnership('room@muc', locks);
    let firstToldHeld = 0;
    let secondToldHeld = 0;
    expect(await first.acquire(() => (firstToldHeld += 1))).toBe(true);
    expect(locks.requests.map((request) => request.ifAvailable)).toEqual([true]);
    const secondAcquired = second.acquire(() => (secondToldHeld += 1));
    await flushMicrotasks();
    expect(secondToldHeld).toBe(1);
    expect(locks.requests.map((request) => request.ifAvailable)).toEqual([true, true, false]);
    first.release();
    expect(await secondAcquired).toBe(true);
    expect(firstToldHeld).toBe(0);
    expect(secondToldHeld).toBe(1);
  });

  it('a tab that gives up while waiting never holds it', async () => {
    const locks = new FakeLocks();
    const first = new CallOwnership('room@muc', locks);
    await first.acquire();
    const second = new CallOwnership('room@muc', locks);
    const acquired = second.acquire();
    second.release();
    first.release();
    expect(await acquired).toBe(false);
  });

  it('a tab that gives up before its first request is answered holds nothing: the next tab takes the lock at once', async () => {
    const locks = new FakeLocks();
    const first = new CallOwnership('room@muc', locks);
    const acquired = first.acquire();
    first.release();
    expect(await acquired).toBe(false);
    let toldHeld = false;
    expect(await new CallOwnership('room@muc', locks).acquire(() => (toldHeld = true))).toBe(true);
    expect(toldHeld).toBe(false);
  });
});
