import { describe, expect, it } from 'vitest';
import { AudioContextResumer } from '../../src/main-thread/voice/AudioContextResumer';
import { VOICE_ACTIVITY } from '../../src/protocol/constants';
import { ManualClock } from '../support/ManualClock';

/** An AudioContext as autoplay rules treat it: resume() is refused until the page may play audio. */
class AutoplayGatedContext {
  state: AudioContextState = 'suspended';
  mayPlay = false;
  resumeCalls = 0;

  resume(): Promise<void> {
    this.resumeCalls += 1;
    if (!this.mayPlay) return Promise.reject(new Error('NotAllowedError: no user activation'));
    this.state = 'running';
    return Promise.resolve();
  }
}

function setUp(): { context: AutoplayGatedContext; page: EventTarget; clock: ManualClock; resumer: AudioContextResumer } {
  const context = new AutoplayGatedContext();
  const page = new EventTarget();
  const clock = new ManualClock();
  return { context, page, clock, resumer: new AudioContextResumer(context, page, clock) };
}

describe('AudioContextResumer (SPEC §9: audio context resume retry every 1 s)', () => {
  it('does nothing before the first user gesture', async () => {
    const { context, clock, resumer } = setUp();
    resumer.start();
    await clock.advance(10_000);
    expect(context.resumeCalls).toBe(0);
  });

  it('resumes at the first gesture, retries every 1 s while refused, then stops', async () => {
    const { context, page, clock, resumer } = setUp();
    resumer.start();
    page.dispatchEvent(new Event('keydown'));
    expect(context.resumeCalls).toBe(1);
    await clock.advance(VOICE_ACTIVITY.audioContextResumeRetryMs - 1);
    expect(context.resumeCalls).toBe(1);
    await clock.advance(1);
    expect(context.resumeCalls).toBe(2);
    await clock.advance(VOICE_ACTIVITY.audioContextResumeRetryMs);
    expect(context.resumeCalls).toBe(3);

    context.mayPlay = true;
    await clock.advance(VOICE_ACTIVITY.audioContextResumeRetryMs);
    expect(context.state).toBe('running');
    expect(clock.pendingDelays()).toEqual([]);
    // Later gestures start nothing again.
    page.dispatchEvent(new Event('pointerdown'));
    await clock.advance(5_000);
    expect(context.resumeCalls).toBe(4);
  });

  it('leaves a running or closed context alone, and dispose() ends the retries', async () => {
    const running = setUp();
    running.context.state = 'running';
    running.resumer.start();
    running.page.dispatchEvent(new Event('click'));
    expect(running.context.resumeCalls).toBe(0);

    const disposed = setUp();
    disposed.resumer.start();
    disposed.page.dispatchEvent(new Event('click'));
    disposed.resumer.dispose();
    await disposed.clock.advance(5_000);
    expect(disposed.context.resumeCalls).toBe(1);

    const closing = setUp();
    closing.resumer.start();
    closing.page.dispatchEvent(new Event('touchend'));
    closing.context.state = 'closed';
    await closing.clock.advance(5_000);
    expect(closing.context.resumeCalls).toBe(1);
    expect(closing.clock.pendingDelays()).toEqual([]);
  });
});
