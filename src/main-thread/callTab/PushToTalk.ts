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

export interface PushToTalkOptions {
  /** Where key events are heard: the tab's window. */
  readonly target: EventTarget;
  /** The talk key went down (true) or up (false). */
  readonly onHeldChange: (held: boolean) => void;
  readonly isTyping?: (target: EventTarget | null) => boolean;
}

/**
 * Push-to-talk (preference pushToTalk): while enabled, holding Space outside a text field means
 * "talking". The key is taken from the page meanwhile, so that it neither scrolls nor presses a
 * focused button. Losing the window's focus lets go of the key, since its release would never arrive.
 */
export class PushToTalk {
  private enabled = false;
  private held = false;
  private readonly isTyping: (target: EventTarget | null) => boolean;

  constructor(private readonly options: PushToTalkOptions) {
    this.isTyping = options.isTyping ?? isTypingTarget;
  }

  get isHeld(): boolean {
    return this.held;
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
      this.setHeld(false);
    }
  }

  private readonly onKeyDown = (event: Event): void => {
    if ((event as KeyboardEvent).code !== PUSH_TO_TALK_KEY || this.isTyping(event.target)) return;
    event.preventDefault();
    this.setHeld(true);
  };

  private readonly onKeyUp = (event: Event): void => {
    if ((event as KeyboardEvent).code !== PUSH_TO_TALK_KEY || !this.held) return;
    event.preventDefault();
    this.setHeld(false);
  };

  private readonly onBlur = (): void => this.setHeld(false);

  private setHeld(held: boolean): void {
    if (held === this.held) return;
    this.held = held;
    this.options.onHeldChange(held);
  }
}
