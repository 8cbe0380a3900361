import { TONE_START_WAIT_MS } from '../../protocol/clientDefaults';

/** What a tone announces. */
export type ToneKind = 'joined' | 'left' | 'message' | 'attention';

/** Each tone's notes (Hz), 120 ms apart: rising for an arrival, falling for a departure. */
const NOTES: Record<ToneKind, readonly number[]> = {
  joined: [660, 880],
  left: [880, 660],
  message: [988],
  attention: [880, 1175, 880, 1175],
};
const NOTE_SECONDS = 0.12;
const VOLUME = 0.08;

let context: AudioContext | undefined;
/** A tone waits for the context to run: the others asked for meanwhile are dropped, never piled up. */
let toneWaiting = false;

/**
 * Plays a short generated tone (Web Audio, no sound files). Best effort: on a context that does not
 * run, the tone waits for it to resume, TONE_START_WAIT_MS at most, and is dropped after. A suspended
 * context's clock stands still: tones scheduled on it would all sound at once when it resumes.
 */
export function playTone(kind: ToneKind): void {
  context ??= new AudioContext();
  const running = context;
  if (running.state === 'running') {
    scheduleTone(running, kind);
    return;
  }
  if (toneWaiting) return;
  toneWaiting = true;
  const askedAt = performance.now();
  void running
    .resume()
    .then(() => {
      if (performance.now() - askedAt <= TONE_START_WAIT_MS) scheduleTone(running, kind);
    })
    .catch(() => {})
    .finally(() => (toneWaiting = false));
}

function scheduleTone(context: AudioContext, kind: ToneKind): void {
  const start = context.currentTime;
  NOTES[kind].forEach((frequency, index) => {
    const at = start + index * NOTE_SECONDS;
    const oscillator = new OscillatorNode(context, { type: 'sine', frequency });
    const gain = new GainNode(context, { gain: 0 });
    // A short attack and release: no clicks.
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(VOLUME, at + 0.01);
    gain.gain.linearRampToValueAtTime(0, at + NOTE_SECONDS - 0.01);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(at);
    oscillator.stop(at + NOTE_SECONDS);
  });
}
