import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../playwright.config';

/** Where each spoken sentence lies in the microphone's file, in ms from its start. */
export interface SpokenSpan {
  readonly startMs: number;
  readonly endMs: number;
}

/** A microphone recording made of real speech: two sentences apart, then a quiet room. */
export interface SpeechRecording {
  /** 48 kHz mono WAV for --use-file-for-fake-audio-capture. */
  readonly file: string;
  readonly first: SpokenSpan;
  readonly second: SpokenSpan;
  dispose(): void;
}

/**
 * Silence before the first sentence: time to join the call before anyone speaks. The recording
 * starts with the first capture, the preview's, which a room page now asks for as soon as the room is
 * found (issue 14), before the join: on a loaded machine 4 s were sometimes gone before the call was up.
 */
const LEAD_SILENCE_S = 6;
/** Between the sentences: time to see the first end and to mute before the second, with room for a loaded machine. */
const GAP_S = 8;
/** A quiet room after the speech (the fake device repeats its last buffer once a %noloop file ends). */
const ROOM_NOISE_S = 30;

function seconds(file: string): number {
  return Number(execFileSync('soxi', ['-D', file], { encoding: 'utf8' }));
}

/**
 * espeak-ng speaks each sentence; sox resamples to 48 kHz mono, trims it to the sound, and lays
 * out digital silence, sentence one, silence, sentence two and a room's noise floor (white noise
 * at about −70 dBFS, far below the speaking threshold).
 */
export function recordSpeech(first: string, second: string): SpeechRecording {
  const dir = mkdtempSync(join(tmpdir(), 'parley-call-speech-'));
  const trimQuiet = ['silence', '1', '0.01', '0.1%'];
  const sentence = (text: string, name: string): string => {
    const spoken = join(dir, `${name}-espeak.wav`);
    const trimmed = join(dir, `${name}.wav`);
    execFileSync('espeak-ng', ['-w', spoken, text]);
    execFileSync('sox', [spoken, '-r', '48000', '-c', '1', '-b', '16', trimmed, ...trimQuiet, 'reverse', ...trimQuiet, 'reverse']);
    return trimmed;
  };
  const silence = (duration: number, name: string): string => {
    const file = join(dir, `${name}.wav`);
    execFileSync('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', file, 'trim', '0', String(duration)]);
    return file;
  };
  const one = sentence(first, 'first');
  const two = sentence(second, 'second');
  const noise = join(dir, 'room-noise.wav');
  execFileSync('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', noise, 'synth', String(ROOM_NOISE_S), 'whitenoise', 'vol', '0.0003']);
  const file = join(dir, 'speech-48k.wav');
  execFileSync('sox', [silence(LEAD_SILENCE_S, 'lead'), one, silence(GAP_S, 'gap'), two, noise, file]);
  const firstStart = LEAD_SILENCE_S * 1_000;
  const firstEnd = firstStart + seconds(one) * 1_000;
  const secondStart = firstEnd + GAP_S * 1_000;
  return {
    file,
    first: { startMs: firstStart, endMs: firstEnd },
    second: { startMs: secondStart, endMs: secondStart + seconds(two) * 1_000 },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A Chromium of its own whose microphone plays the recording once (%noloop), from its first capture on. */
export function launchSpeakingBrowser(recording: SpeechRecording): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: [...CHROMIUM_ARGS, `--use-file-for-fake-audio-capture=${recording.file}%noloop`],
  });
}
