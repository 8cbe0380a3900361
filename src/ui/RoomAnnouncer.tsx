import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { roomEventsAtomFamily } from '../main-thread/sessionAtoms';
import { roomEventText, unannouncedEvents } from './roomEventText';

/**
 * Tells screen readers, politely, what happens in the room — who joined, left or was removed, a lock
 * changed — from the room's event lines, so that a reconnect (which lists only who came and went
 * meanwhile) is no noise. Each line is said once: while the chat is open its log (a live region of its
 * own) reads it, so this region speaks only while the chat is closed. New messages are the log's.
 */
export function RoomAnnouncer({ roomAddress, chatShown }: { roomAddress: string; chatShown: boolean }) {
  const events = useAtomValue(roomEventsAtomFamily(roomAddress));
  const seen = useRef<Set<string> | undefined>(undefined);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    const news = unannouncedEvents(seen.current, events);
    seen.current = new Set(events.map((event) => event.id));
    if (news.length > 0 && !chatShown) setAnnouncement(news.map((event) => `${roomEventText(event)}.`).join(' '));
  }, [events, chatShown]);

  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-label="Room events">
      {announcement}
    </div>
  );
}
