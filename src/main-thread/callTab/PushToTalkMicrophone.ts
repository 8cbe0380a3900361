import { isVoice, type MediaItems } from '../media';
import { PushToTalk } from './PushToTalk';

export interface PushToTalkMicrophoneOptions {
  readonly media: MediaItems;
  /** Where push-to-talk hears the key: the tab's window. */
  readonly keyTarget: EventTarget;
  /** The microphone item now, if one runs. */
  readonly microphone: () => { readonly itemId: string; readonly muted: boolean } | undefined;
  /** Talking (the key or the on-screen "Hold to talk" held) began (true) or ended (false). */
  readonly onHeldChange: (held: boolean) => void;
}

/**
 * Push-to-talk (preference pushToTalk) applied to your microphone: while it is on the microphone
 * is muted except while the key is held; turned off, the microphone goes back to how it was.
 */
export class PushToTalkMicrophone {
  private readonly key: PushToTalk;
  private enabled = false;
  private mutedBefore = false;
  private readonly stopFollowingMicrophones: () => void;

  constructor(private readonly options: PushToTalkMicrophoneOptions) {
    this.key = new PushToTalk({ target: options.keyTarget, onHeldChange: (held) => this.onHeldChange(held) });
    // A microphone asked for while talking may arrive after the talk ended (no microphone to mute then): it starts as the talk is now.
    this.stopFollowingMicrophones = options.media.on('added', (item) => {
      if (this.enabled && item.source === 'local' && isVoice(item)) options.media.setLocalDisabled(item.id, !this.key.isHeld);
    });
  }

  /** A new microphone starts muted while push-to-talk is on and the key is not held. */
  get keepsMuted(): boolean {
    return this.enabled && !this.key.isHeld;
  }

  setEnabled(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    this.key.setEnabled(enabled);
    const microphone = this.options.microphone();
    if (enabled) {
      this.mutedBefore = microphone?.muted ?? false;
      if (microphone) this.options.media.setLocalDisabled(microphone.itemId, !this.key.isHeld);
    } else if (microphone) {
      this.options.media.setLocalDisabled(microphone.itemId, this.mutedBefore);
    }
  }

  /** The on-screen "Hold to talk" pressed (true) or let go (false). */
  holdOnScreen(held: boolean): void {
    this.key.holdOnScreen(held);
  }

  /** Stops hearing the key (the view is gone); a held key counts as released. */
  dispose(): void {
    this.key.dispose();
    this.stopFollowingMicrophones();
  }

  private onHeldChange(held: boolean): void {
    this.options.onHeldChange(held);
    const microphone = this.options.microphone();
    if (this.enabled && microphone) this.options.media.setLocalDisabled(microphone.itemId, !held);
  }
}
