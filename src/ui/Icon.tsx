import type { ReactNode } from 'react';

/** A line drawing in the current text colour, hidden from assistive technology (the control it sits in is named). */
export function Icon({ children, crossed = false }: { children: ReactNode; crossed?: boolean }) {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
      <g fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round">
        {children}
        {crossed && <path d="M4 4l16 16" />}
      </g>
    </svg>
  );
}
