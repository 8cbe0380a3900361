/** The key held to talk (KeyboardEvent.code). */
const PUSH_TO_TALK_KEY = 'Space';

/** Input types whose Space key does not type a character. */
const NON_TEXT_INPUTS = new Set(['button', 'checkbox', 'color', 'file', 'hidden', 'image', 'radio', 'range', 'reset', 'submit']);

/** Whether a key event comes from typing: a text field, a text area, a select or editable content has focus. */
function isTypingTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}

/** What holds the talk: the key, or the on-screen "Hold to talk" pressed with a finger or the mouse. */
type Holder = 'key' | 'pointer';

export interface PushToTalkOptions {
  /** Where key events are heard: the tab's window. */
  readonly target: EventTarget;
  /** Talking began (true) or ended (false). */
  readonly onHeldChange: (held: boolean) => void;
  readonly isTyping?: (target: EventTarget | null) => boolean;
}

/**
 * Push-to-talk (preference pushToTalk): while enabled, holding Space outside a text field means
 * "talking", and so does holding the on-screen "Hold to talk" (a touch screen has no Space bar). The
 * key is taken from the page meanwhile, so that it neither scrolls nor presses a focused button.
 * Talking lasts while either holds; losing the window's focus lets go of both, since their release
 * would never arrive.
 */
export class PushToTalk {
  private enabled = false;
  private readonly holders = new Set<Holder>();
  private readonly isTyping: (target: EventTarget | null) => boolean;

  constructor(private readonly options: PushToTalkOptions) {
    this.isTyping = options.isTyping ?? isTypingTarget;
  }

  get isHeld(): boolean {
    return this.holders.size > 0;
  }

  /** The on-screen "Hold to talk" pressed (true) or let go (false); nothing while push-to-talk is off. */
  holdOnScreen(held: boolean): void {
    if (this.enabled) this.setHeld('pointer', held);
  }

  setEnabled(enabled: boolean): void {
    if (enabled === this.enabled) return;
    this.enabled = enabled;
    const { target } = this.options;
    if (enabled) {
      target.addEventListener('keydown', this.onKeyDown);
      target.addEventListener('keyup', this.onKeyUp);
      target.addEventListener('blur', this.onBlur);
    } else {
      target.removeEventListener('keydown', this.onKeyDown);
      target.removeEventListener('keyup', this.onKeyUp);
      target.removeEventListener('blur', this.onBlur);
      this.letGo();
    }
  }

  private readonly onKeyDown = (event: Event): void => {
    if ((event as KeyboardEvent).code !== PUSH_TO_TALK_KEY || this.isTyping(event.target)) return;
    event.preventDefault();
    this.setHeld('key', true);
  };

  private readonly onKeyUp = (event: Event): void => {
    if ((event as KeyboardEvent).code !== PUSH_TO_TALK_KEY || !this.holders.has('key')) return;
    event.preventDefault();
    this.setHeld('key', false);
  };

  private readonly onBlur = (): void => this.letGo();

  private letGo(): void {
    this.setHeld('key', false);
    this.setHeld('pointer', false);
  }

  private setHeld(holder: Holder, held: boolean): void {
    const before = this.isHeld;
    if (held) this.holders.add(holder);
    else this.holders.delete(holder);
    if (this.isHeld !== before) this.options.onHeldChange(this.isHeld);
  }
}
