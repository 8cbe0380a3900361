import { VOLUME } from '../../protocol/constants';
import type { Peer, Preferences } from '../../protocol/entities';
import type { Logger } from '../../common/logger';
import { setAudioOutput } from '../media';
import { playbackVolume } from './playbackVolume';
import { errorMessage } from '../../common/errorMessage';

/** What the outputs read: the peers' volume limits and the preferences. */
export interface AudioOutputSettings {
  readonly peers: Readonly<Record<string, Peer>>;
  readonly preferences: Pick<Preferences, 'globalVolumeLimit' | 'audioOutputDeviceId'>;
}

interface Output {
  readonly element: HTMLAudioElement;
  /** The peer whose audio it plays. */
  readonly owner: string | undefined;
  /** The output device asked for last ('' is the system default). */
  sinkId: string | undefined;
  /** That device could not be used (not plugged in), or went from the device list while in use (the browser then plays on its default): asked for again on the next change of the list. */
  sinkUnavailable: boolean;
}

/**
 * The `<audio>` elements playing remote audio: each plays at its peer's volume limit times the
 * global limit (SPEC §3/§9: 0.8 and 1 by default; deafened, 0) on the chosen output device
 * (preference audioOutputDeviceId, where the browser can choose outputs). `refresh` re-applies
 * both whenever a limit or the preference changes; `retryUnavailable`, once the device list changes,
 * asks again for a chosen output that was not plugged in, or that was unplugged while it played (the
 * browser moves its sound to the default without a word), so a headset plugged back in plays the call.
 */
export class AudioOutputs {
  private readonly outputs = new Set<Output>();
  /**
   * Each person's limit as last listed or set: SPEC §4 clears every peer when the connection drops,
   * while their audio plays on (call/RejoinHold), so an owner the room does not list now keeps this
   * one, and one set for them meanwhile is heard at once.
   */
  private readonly knownLimits = new Map<string, number>();

  constructor(
    private readonly read: () => AudioOutputSettings,
    private readonly logger: Logger,
  ) {}

  add(element: HTMLAudioElement, owner: string | undefined): () => void {
    const output: Output = { element, owner, sinkId: undefined, sinkUnavailable: false };
    this.outputs.add(output);
    this.apply(output, this.read());
    return () => this.outputs.delete(output);
  }

  refresh(): void {
    const settings = this.read();
    for (const output of this.outputs) this.apply(output, settings);
  }

  /** You set how loud you hear `owner`: while the room does not list them (a record it lists sets it), heard at once. */
  setLimit(owner: string, volumeLimit: number): void {
    this.knownLimits.set(owner, volumeLimit);
    this.refresh();
  }

  /**
   * The device list changed (`listedOutputs`: the output devices it names; none named before access
   * is granted): an output whose chosen device is no longer listed plays on the default meanwhile,
   * and each whose chosen device could not be used is asked for it again.
   */
  retryUnavailable(listedOutputs: readonly string[]): void {
    const settings = this.read();
    for (const output of this.outputs) {
      const chosen = output.sinkId;
      if (listedOutputs.length > 0 && chosen && !listedOutputs.includes(chosen)) {
        output.sinkUnavailable = true;
        continue;
      }
      if (!output.sinkUnavailable) continue;
      output.sinkId = undefined;
      this.apply(output, settings);
    }
  }

  private apply(output: Output, { peers, preferences }: AudioOutputSettings): void {
    const volume = playbackVolume(this.limitOf(output.owner, peers), preferences.globalVolumeLimit);
    if (output.element.volume !== volume) output.element.volume = volume;
    const sinkId = preferences.audioOutputDeviceId;
    if (output.sinkId === sinkId) return;
    output.sinkId = sinkId;
    output.sinkUnavailable = false;
    setAudioOutput(output.element, sinkId).catch((error: unknown) => {
      // An unplugged device or a refused permission: the element keeps its current output.
      if (output.sinkId === sinkId) output.sinkUnavailable = true;
      this.logger.error(`Could not play audio on output ${sinkId || 'default'}: ${errorMessage(error)}`);
    });
  }

  private limitOf(owner: string | undefined, peers: AudioOutputSettings['peers']): number {
    if (owner === undefined) return VOLUME.peerLimitDefault;
    const listed = peers[owner]?.volumeLimit;
    if (listed !== undefined) this.knownLimits.set(owner, listed);
    return this.knownLimits.get(owner) ?? VOLUME.peerLimitDefault;
  }
}
