import { afterEach, describe, expect, it, vi } from 'vitest';
import { TONE_START_WAIT_MS } from '../../src/protocol/clientDefaults';

/**
 * A named fake of the Web Audio a tone uses: the context's state is the test's, and so is when its
 * resume() settles (`resumed`); each note's start is counted.
 */
function fakeWebAudio(state: AudioContextState) {
  const started: number[] = [];
  let resumed: () => void = () => undefined;
  const resume = vi.fn(() => new Promise<void>((resolve) => (resumed = resolve)));
  class FakeAudioContext {
    state = state;
    currentTime = 0;
    destination = {};
    resume = resume;
  }
  class FakeAudioNode {
    connect(next: unknown) {
      return next;
    }
  }
  class FakeOscillatorNode extends FakeAudioNode {
    start(at: number) {
      started.push(at);
    }
    stop() {}
  }
  class FakeGainNode extends FakeAudioNode {
    gain = { setValueAtTime() {}, linearRampToValueAtTime() {} };
  }
  vi.stubGlobal('AudioContext', FakeAudioContext);
  vi.stubGlobal('OscillatorNode', FakeOscillatorNode);
  vi.stubGlobal('GainNode', FakeGainNode);
  return { started, resume, resumed: () => resumed() };
}

/** tones.ts keeps one context for the page: each test loads it afresh. */
async function loadTones() {
  vi.resetModules();
  return import('../../src/main-thread/alerts/tones');
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe(`Room tones never pile up on a suspended audio context: a tone waits for it to run ${TONE_START_WAIT_MS} ms at most, one at a time (issue 15)`, () => {
  it('tones asked for while the context stays suspended are dropped, the context asked to resume: none sounds at once later', async () => {
    const { started, resume, resumed } = fakeWebAudio('suspended');
    const { playTone } = await loadTones();
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    playTone('message');
    playTone('joined');
    playTone('attention');
    expect(started).toEqual([]);
    expect(resume).toHaveBeenCalledTimes(1);
    // A click, much later, lets the context run: the tone that waited is stale.
    now.mockReturnValue(1_000 + TONE_START_WAIT_MS + 1);
    resumed();
    await settled();
    expect(started).toEqual([]);
  });

  it('a tone asked for as the context starts plays once it runs, and the others asked for meanwhile do not', async () => {
    const { started, resumed } = fakeWebAudio('suspended');
    const { playTone } = await loadTones();
    playTone('joined');
    playTone('message');
    resumed();
    await settled();
    expect(started).toEqual([0, 0.12]);
  });

  it('a tone on a running context plays its notes one after another, at once', async () => {
    const { started, resume } = fakeWebAudio('running');
    const { playTone } = await loadTones();
    playTone('joined');
    expect(started).toEqual([0, 0.12]);
    expect(resume).not.toHaveBeenCalled();
  });
});
