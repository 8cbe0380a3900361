import type { MouseEvent } from 'react';

/** Ids of the room page's regions, the targets of its skip links. */
export const ROOM_REGION_IDS = { people: 'room-people', call: 'room-call', chat: 'room-chat' } as const;

/** Moves focus into the region itself, so the next Tab continues from there. */
function skipTo(event: MouseEvent<HTMLAnchorElement>, id: string) {
  event.preventDefault();
  const target = document.getElementById(id);
  if (!target) return;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus();
}

/** Keyboard shortcuts past the header to the call and to the people and the chat while their panels are open; seen only when focused. */
export function SkipLinks({ peopleShown, chatShown }: { peopleShown: boolean; chatShown: boolean }) {
  const links = [
    { id: ROOM_REGION_IDS.call, label: 'Skip to call' },
    ...(peopleShown ? [{ id: ROOM_REGION_IDS.people, label: 'Skip to people' }] : []),
    ...(chatShown ? [{ id: ROOM_REGION_IDS.chat, label: 'Skip to chat' }] : []),
  ];
  return (
    <nav className="skip-links" aria-label="Skip links">
      {links.map((link) => (
        <a key={link.id} href={`#${link.id}`} className="skip-link" onClick={(event) => skipTo(event, link.id)}>
          {link.label}
        </a>
      ))}
    </nav>
  );
}
