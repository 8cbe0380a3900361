import { useEffect, useId, useRef } from 'react';
import type { DeviceTrouble } from '../../main-thread/media';
import { focusLost } from '../focusLost';
import { CameraIcon, MicrophoneIcon } from './CallIcons';
import { CALL_SHORTCUTS, shortcutNames, useCallShortcut } from './callShortcuts';

/** Each device's button in words (what a press does: on, then off; its state said once its shortcut was used), key and icon. */
const DEVICES = {
  microphone: { shortcut: CALL_SHORTCUTS.microphone, labels: ['Mute microphone', 'Unmute microphone'], stateWords: ['Microphone on', 'Microphone muted'], Icon: MicrophoneIcon },
  camera: { shortcut: CALL_SHORTCUTS.camera, labels: ['Stop camera', 'Start camera'], stateWords: ['Camera on', 'Camera off'], Icon: CameraIcon },
} as const;

export interface DeviceToggleProps {
  readonly device: keyof typeof DEVICES;
  /** The device runs (camera on, microphone unmuted). */
  readonly on: boolean;
  /** The device is on its way: neither shown off nor toggled, since a click then would start it, not stop it. */
  readonly starting: boolean;
  /** A press does nothing now: while its device starts the button stays focusable (aria-disabled), else it is disabled. */
  readonly disabled: boolean;
  /** The tooltip when it is not the label with its shortcut. */
  readonly title?: string;
  readonly onToggle: () => void;
  /** Take focus once usable, unless it went elsewhere meanwhile (it was lost, or its group holds it). */
  readonly takeFocus?: boolean;
  /**
   * Why the device is not on (its capture failed): marked on the button, its advice said with it, its
   * short words in the tooltip where known (the tabs that ask the call's tab know the advice alone).
   */
  readonly trouble?: (Pick<DeviceTrouble, 'advice'> & Partial<Pick<DeviceTrouble, 'words'>>) | undefined;
}

/**
 * The camera's or the microphone's button, with its keyboard shortcut (callShortcuts): in the call's
 * controls and the preview, and in the tabs that ask the call's tab (OwnMediaElsewhere).
 */
export function DeviceToggle({ device, on, starting, disabled, title, onToggle, takeFocus = false, trouble }: DeviceToggleProps) {
  const { shortcut, labels, stateWords, Icon } = DEVICES[device];
  const shortcutUsed = useCallShortcut(shortcut, !disabled, onToggle);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const troubleId = useId();
  const troubleShown = trouble !== undefined && !on && !starting;
  useEffect(() => {
    const button = buttonRef.current;
    if (!takeFocus || disabled || !button) return;
    if (focusLost() || document.activeElement === button.closest('[role="group"]')) button.focus({ preventScroll: true });
  }, [takeFocus, disabled]);
  const names = shortcutNames(shortcut);
  const label = labels[on ? 0 : 1];
  // Not disabled while its device starts: the browser would drop the focus of the button just
  // pressed to the page. A lasting reason (no such device, push-to-talk) disables it.
  const held = disabled && starting;
  return (
    <>
      <button
        ref={buttonRef}
        type="button"
        className={`control${on || starting ? '' : ' is-off'}${troubleShown ? ' has-trouble' : ''}`}
        aria-label={label}
        aria-keyshortcuts={names.aria}
        aria-describedby={troubleShown ? troubleId : undefined}
        title={title ?? (troubleShown ? `${trouble.words === undefined ? '' : `${trouble.words}. `}${label} to try again (${names.shown})` : `${label} (${names.shown})`)}
        disabled={disabled && !held}
        aria-disabled={held ? true : undefined}
        onClick={() => {
          if (!disabled) onToggle();
        }}
      >
        <Icon off={!on && !starting} />
      </button>
      {/* Hidden, yet the button's description: read with the button, not again on its own. */}
      {troubleShown && (
        <span id={troubleId} hidden>
          {trouble.advice}
        </span>
      )}
      <span className="visually-hidden" role="status">
        {shortcutUsed && !starting ? stateWords[on ? 0 : 1] : ''}
      </span>
    </>
  );
}
