/** The key held to talk (KeyboardEvent.code). */
const PUSH_TO_TALK_KEY = 'Space';

/**
 * Input types whose Space neither types nor is their only key: push-to-talk takes it. A button is
 * pressed with Enter too, and a call control clicked keeps the focus: Space there talks.
 */
const SPACE_FREE_INPUTS = new Set(['button', 'color', 'file', 'hidden', 'image', 'range', 'reset', 'submit']);

/** Input types Space ticks: theirs unless the pointer just ticked them. */
const SPACE_TICKED_INPUTS = new Set(['checkbox', 'radio']);

/** The focused element as far as Space is concerned (an HTMLElement, or a stand-in for one). */
interface FocusedElement {
  readonly tagName: string;
  readonly type?: string;
  readonly isContentEditable?: boolean;
}

/** Whether the pointer's last press was on `target`, or on what holds it or names it (its label). */
function pressedOn(pointedAt: EventTarget | null, target: EventTarget): boolean {
  if (pointedAt === null) return false;
  if (pointedAt === target) return true;
  const pressed = pointedAt as { contains?: (other: unknown) => boolean; control?: unknown };
  return pressed.contains?.(target) === true || pressed.control === target;
}

/**
 * Whether Space belongs to the element it is pressed in: it types there (a text field, a text area,
 * editable content), or it is how the keyboard ticks or opens it (a checkbox, a radio button, a
 * select) — unless the pointer's last press (`pointedAt`) was on it: one who tabbed to "Push to
 * talk" unticks it with Space, one who has just ticked it with the mouse talks with Space.
 */
export function spaceBelongsToTarget(target: EventTarget | null, pointedAt: EventTarget | null = null): boolean {
  if (target === null || !('tagName' in target)) return false;
  const element = target as FocusedElement;
  if (element.isContentEditable === true) return true;
  switch (element.tagName) {
    case 'TEXTAREA':
      return true;
    case 'SELECT':
      return !pressedOn(pointedAt, target);
    case 'INPUT': {
      const type = element.type ?? 'text';
      if (SPACE_TICKED_INPUTS.has(type)) return !pressedOn(pointedAt, target);
      return !SPACE_FREE_INPUTS.has(type);
    }
    default:
      return false;
  }
}

/** What holds the talk: the key, or the on-screen "Hold to talk" pressed with a finger or the mouse. */
type Holder = 'key' | 'pointer';

export interface PushToTalkOptions {
  /** Where key events are heard: the tab's window. */
  readonly target: EventTarget;
  /** Talking began (true) or ended (false). */
  readonly onHeldChange: (held: boolean) => void;
  /** Whether Space belongs to where it is pressed (spaceBelongsToTarget); push-to-talk leaves it there. */
  readonly spaceBelongsTo?: (target: EventTarget | null) => boolean;
}

/**
 * Push-to-talk (preference pushToTalk): while enabled, holding Space means "talking" unless it types
 * or ticks where it is pressed (spaceBelongsToTarget), and so does holding the on-screen "Hold to
 * talk" (a touch screen has no Space bar). The key is taken from the page meanwhile, so that it
 * neither scrolls nor presses a focused button.
 * Talking lasts while either holds; losing the window's focus lets go of both, since their release
 * would never arrive.
 */
export class PushToTalk {
  private enabled = false;
  private readonly holders = new Set<Holder>();
  private readonly spaceBelongsTo: (target: EventTarget | null) => boolean;
  /** What the pointer last pressed, until a key other than Space is used (spaceBelongsToTarget). */
  private pointedAt: EventTarget | null = null;

  constructor(private readonly options: PushToTalkOptions) {
    this.spaceBelongsTo = options.spaceBelongsTo ?? ((target) => spaceBelongsToTarget(target, this.pointedAt));
    // Heard whether or not push-to-talk is on: ticking "Push to talk" itself turns it on.
    options.target.addEventListener('pointerdown', this.onPointerDown, true);
    options.target.addEventListener('keydown', this.onAnyKeyDown, true);
  }

  /** Stops hearing the pointer and the keys (the view is gone); a held key counts as released. */
  dispose(): void {
    this.setEnabled(false);
    this.options.target.removeEventListener('pointerdown', this.onPointerDown, true);
    this.options.target.removeEventListener('keydown', this.onAnyKeyDown, true);
  }

  private readonly onPointerDown = (event: Event): void => {
    this.pointedAt = event.target;
  };

  /** Another key (Tab, say) moves on by the keyboard: what the pointer pressed no longer says where the focus came from. */
  private readonly onAnyKeyDown = (event: Event): void => {
    if ((event as KeyboardEvent).code !== PUSH_TO_TALK_KEY) this.pointedAt = null;
  };

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
    if ((event as KeyboardEvent).code !== PUSH_TO_TALK_KEY || this.spaceBelongsTo(event.target)) return;
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
