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
}

/**
 * The `<audio>` elements playing remote audio: each plays at its peer's volume limit times the
 * global limit (SPEC §3/§9: 0.8 and 1 by default; deafened, 0) on the chosen output device
 * (preference audioOutputDeviceId, where the browser can choose outputs). `refresh` re-applies
 * both whenever a limit or the preference changes.
 */
export class AudioOutputs {
  private readonly outputs = new Set<Output>();

  constructor(
    private readonly read: () => AudioOutputSettings,
    private readonly logger: Logger,
  ) {}

  add(element: HTMLAudioElement, owner: string | undefined): () => void {
    const output: Output = { element, owner, sinkId: undefined };
    this.outputs.add(output);
    this.apply(output, this.read());
    return () => this.outputs.delete(output);
  }

  refresh(): void {
    const settings = this.read();
    for (const output of this.outputs) this.apply(output, settings);
  }

  private apply(output: Output, { peers, preferences }: AudioOutputSettings): void {
    const limit = output.owner === undefined ? VOLUME.peerLimitDefault : (peers[output.owner]?.volumeLimit ?? VOLUME.peerLimitDefault);
    const volume = playbackVolume(limit, preferences.globalVolumeLimit);
    if (output.element.volume !== volume) output.element.volume = volume;
    const sinkId = preferences.audioOutputDeviceId;
    if (output.sinkId === sinkId) return;
    output.sinkId = sinkId;
    setAudioOutput(output.element, sinkId).catch((error: unknown) => {
      // An unplugged device or a refused permission: the element keeps its current output.
      this.logger.error(`Could not play audio on output ${sinkId || 'default'}: ${errorMessage(error)}`);
    });
  }
}
