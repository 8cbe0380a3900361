import type { ReactNode } from 'react';
import { shortcutNames, useCallShortcut, type CallShortcut } from './callShortcuts';

export interface DeviceToggleProps {
  /** The device runs (camera on, microphone unmuted). */
  readonly on: boolean;
  /** The device is on its way: neither shown off nor toggled, since a click then would start it, not stop it. */
  readonly starting: boolean;
  readonly disabled: boolean;
  /** What a press does now, the button's name. */
  readonly label: string;
  /** The tooltip when it is not the label with its shortcut. */
  readonly title?: string;
  readonly shortcut: CallShortcut;
  readonly onToggle: () => void;
  readonly icon: (off: boolean) => ReactNode;
  /** The state in words, said once the shortcut has been used: on, then off. */
  readonly stateWords: readonly [string, string];
}

/** The camera's or the microphone's button in the call's controls and the preview, with its keyboard shortcut (callShortcuts). */
export function DeviceToggle({ on, starting, disabled, label, title, shortcut, onToggle, icon, stateWords }: DeviceToggleProps) {
  const shortcutUsed = useCallShortcut(shortcut, !disabled, onToggle);
  const names = shortcutNames(shortcut);
  return (
    <>
      <button
        type="button"
        className={`control${on || starting ? '' : ' is-off'}`}
        aria-label={label}
        aria-keyshortcuts={names.aria}
        title={title ?? `${label} (${names.shown})`}
        disabled={disabled}
        onClick={onToggle}
      >
        {icon(!on && !starting)}
      </button>
      <span className="visually-hidden" role="status">
        {shortcutUsed && !starting ? stateWords[on ? 0 : 1] : ''}
      </span>
    </>
  );
}
