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

/** Plays a short generated tone (Web Audio, no sound files). Best effort: a context the browser keeps suspended stays silent. */
export function playTone(kind: ToneKind): void {
  context ??= new AudioContext();
  if (context.state === 'suspended') void context.resume().catch(() => {});
  const start = context.currentTime;
  NOTES[kind].forEach((frequency, index) => {
    const at = start + index * NOTE_SECONDS;
    const oscillator = new OscillatorNode(context as AudioContext, { type: 'sine', frequency });
    const gain = new GainNode(context as AudioContext, { gain: 0 });
    // A short attack and release: no clicks.
    gain.gain.setValueAtTime(0, at);
    gain.gain.linearRampToValueAtTime(VOLUME, at + 0.01);
    gain.gain.linearRampToValueAtTime(0, at + NOTE_SECONDS - 0.01);
    oscillator.connect(gain).connect((context as AudioContext).destination);
    oscillator.start(at);
    oscillator.stop(at + NOTE_SECONDS);
  });
}
