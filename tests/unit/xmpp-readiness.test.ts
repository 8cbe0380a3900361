import { describe, expect, it } from 'vitest';
import { XmppReadiness } from '../../server/supervision/XmppReadiness';
import { flushMicrotasks, ManualClock } from '../support/ManualClock';

const settings = { releasesPerSecond: 20, maxWaitMs: 20_000, maxWaiters: 5, maxWaitersPerAddress: 5 };

/** Asks `count` questions from `clientAddress`; returns what each was answered (undefined while unanswered). */
function ask(readiness: XmppReadiness, count: number, clientAddress = '192.0.2.1'): Array<boolean | undefined> {
  const answers: Array<boolean | undefined> = Array.from({ length: count }, () => undefined);
  for (let index = 0; index < count; index += 1) void readiness.whenUp(clientAddress).then((up) => (answers[index] = up));
  return answers;
}

describe('The gateway says when the XMPP server is up again (GET /api/xmpp-ready, issue 13): waiting clients are told at once, spread at a bounded rate', () => {
  it('answers at once while the server is up, and holds the question while it is down', async () => {
    const clock = new ManualClock();
    const readiness = new XmppReadiness(clock, settings);
    expect(await readiness.whenUp('192.0.2.1')).toBe(true);
    readiness.markDown();
    const answers = ask(readiness, 1);
    await clock.advance(10_000);
    expect(answers).toEqual([undefined]);
    readiness.markUp();
    await flushMicrotasks();
    expect(answers).toEqual([true]);
    expect(readiness.upSince).toBe(10_000);
  });

  it('says "still down" after its wait, so the client asks again', async () => {
    const clock = new ManualClock();
    const readiness = new XmppReadiness(clock, settings, false);
    const answers = ask(readiness, 1);
    await clock.advance(settings.maxWaitMs - 1);
    expect(answers).toEqual([undefined]);
    await clock.advance(1);
    expect(answers).toEqual([false]);
    expect(readiness.waiting).toBe(0);
  });

  it('releases those waiting at releasesPerSecond, oldest first, not all at one instant', async () => {
    const clock = new ManualClock();
    const readiness = new XmppReadiness(clock, settings, false);
    const answers = ask(readiness, 5);
    readiness.markUp();
    await flushMicrotasks();
    // 20 per second: 2 each 100 ms.
    expect(answers).toEqual([true, true, undefined, undefined, undefined]);
    await clock.advance(100);
    expect(answers).toEqual([true, true, true, true, undefined]);
    // A newcomer waits behind those still queued.
    const late = ask(readiness, 1);
    await clock.advance(100);
    expect([...answers, ...late]).toEqual([true, true, true, true, true, true]);
  });

  it('bounds the questions it holds: one more is answered "still down" at once', async () => {
    const clock = new ManualClock();
    const readiness = new XmppReadiness(clock, settings, false);
    ask(readiness, settings.maxWaiters);
    expect(await readiness.whenUp('192.0.2.2')).toBe(false);
  });

  it('forgets a client that went away, and a server that goes down again stops the releases', async () => {
    const clock = new ManualClock();
    const readiness = new XmppReadiness(clock, settings, false);
    let leave: (() => void) | undefined;
    const left = readiness.whenUp('192.0.2.1', (stop) => (leave = stop));
    leave?.();
    expect(await left).toBe(false);
    expect(readiness.waiting).toBe(0);

    const answers = ask(readiness, 4);
    readiness.markUp();
    readiness.markDown();
    await clock.advance(1_000);
    expect(answers).toEqual([true, true, undefined, undefined]);
  });
});

describe('One client address holds at most maxWaitersPerAddress questions to GET /api/xmpp-ready: the rest of the places stay for everyone else', () => {
  const perAddress = { releasesPerSecond: 20, maxWaitMs: 20_000, maxWaiters: 6, maxWaitersPerAddress: 2 };

  it('answers one more question from a full address "still down" at once, while another address is still held', async () => {
    const clock = new ManualClock();
    const readiness = new XmppReadiness(clock, perAddress, false);
    const flooding = ask(readiness, 3, '198.51.100.7');
    const other = ask(readiness, 1, '203.0.113.9');
    await flushMicrotasks();
    expect(flooding).toEqual([undefined, undefined, false]);
    expect(other).toEqual([undefined]);
    expect(readiness.waiting).toBe(3);
  });

  it('gives an address its place back once one of its questions is answered, and keeps the oldest first', async () => {
    const clock = new ManualClock();
    const readiness = new XmppReadiness(clock, perAddress, false);
    let leave: (() => void) | undefined;
    const left = readiness.whenUp('198.51.100.7', (stop) => (leave = stop));
    const first = ask(readiness, 1, '198.51.100.7');
    leave?.();
    expect(await left).toBe(false);
    const again = ask(readiness, 1, '198.51.100.7');
    readiness.markUp();
    await flushMicrotasks();
    // 20 per second: 2 each 100 ms, the one that stayed before the one that came back.
    expect([...first, ...again]).toEqual([true, true]);
    expect(readiness.waiting).toBe(0);
  });
});
