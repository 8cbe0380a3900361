import type { ReactNode } from 'react';

/**
 * A line drawing in the current text colour, hidden from assistive technology (the control it sits in
 * is named, or the text beside it says what it means). `size` in CSS pixels.
 */
export function Icon({ children, crossed = false, size = 20 }: { children: ReactNode; crossed?: boolean; size?: number }) {
  return (
    <svg className="icon" viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <g fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        {children}
        {crossed && <path d="M4 4l16 16" />}
      </g>
    </svg>
  );
}

// The two icons the room's view shares with its lazily loaded controls live here, beside the frame
// they draw in: in files of their own each was a chunk of its own on a room page's load.

/** A bell (someone asks for attention). */
export function BellIcon() {
  return (
    <Icon size={18}>
      <path d="M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15L6 16Zm4 4h4" />
    </Icon>
  );
}

/** A padlock (the room is locked). */
export function LockIcon() {
  return (
    <Icon size={16}>
      <path d="M7 11V8a5 5 0 0 1 10 0v3M6 11h12v9H6z" />
    </Icon>
  );
}
