import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser } from '@playwright/test';
import { TEST_CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../../playwright.config';

/**
 * A microphone recording made of real speech that the fake device plays over and over: silence, a
 * sentence, silence, another sentence. A test does not race it: it mutes the microphone for what
 * must not be heard, and waits for whichever sentence comes next, at most a pass of the recording.
 */
export interface SpeechRecording {
  /** 48 kHz mono WAV for --use-file-for-fake-audio-capture. */
  readonly file: string;
  /** One pass of the recording, in ms: the longest wait for the next sentence to start and end. */
  readonly passMs: number;
  dispose(): void;
}

/** Before each sentence: long enough for speaking to turn off (SPEC §9: 10 quiet samples of 50 ms) and to be seen off. */
const SILENCE_S = 5;

function seconds(file: string): number {
  return Number(execFileSync('soxi', ['-D', file], { encoding: 'utf8' }));
}

/** espeak-ng speaks each sentence; sox resamples it to 48 kHz mono, trims it to the sound, and lays out silence, sentence one, silence, sentence two. */
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
  const silence = join(dir, 'silence.wav');
  execFileSync('sox', ['-n', '-r', '48000', '-c', '1', '-b', '16', silence, 'trim', '0', String(SILENCE_S)]);
  const file = join(dir, 'speech-48k.wav');
  execFileSync('sox', [silence, sentence(first, 'first'), silence, sentence(second, 'second'), file]);
  return { file, passMs: seconds(file) * 1_000, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A Chromium of its own whose microphone plays the recording over and over, from its first capture on. */
export function launchSpeakingBrowser(recording: SpeechRecording): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: [...TEST_CHROMIUM_ARGS, `--use-file-for-fake-audio-capture=${recording.file}`],
  });
}
