import { Icon } from './Icon';

/** The room header's icons: on a phone the buttons show only these, their names stay in the text. */
export function PeopleIcon() {
  return (
    <Icon>
      <circle cx="9" cy="8" r="3.2" />
      <path d="M3.5 19.5a5.5 5.5 0 0 1 11 0M16 5.2a3 3 0 0 1 0 5.6M17.5 14.2a5.5 5.5 0 0 1 3 5.3" />
    </Icon>
  );
}

export function ChatIcon() {
  return (
    <Icon>
      <path d="M4 5.5h16v10.5H10l-4.5 3.5V16H4z" />
    </Icon>
  );
}

export function MoreIcon() {
  return (
    <Icon>
      <path d="M5.5 12h.01M12 12h.01M18.5 12h.01" strokeWidth="3" />
    </Icon>
  );
}

export function LeaveIcon() {
  return (
    <Icon>
      <path d="M14 4.5H6.5v15H14M10.5 12H21M17.5 8.5 21 12l-3.5 3.5" />
    </Icon>
  );
}
