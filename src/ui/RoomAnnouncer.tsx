import { useAtomValue, useStore } from 'jotai';
import { useEffect, useRef, useState } from 'react';
import { systemClock } from '../common/clock';
import { roomEventsAtomFamily, roomLeaveStillHeld, roomEventStillShown } from '../main-thread/sessionAtoms';
import { RoomAnnouncements } from './RoomAnnouncements';

/**
 * Tells screen readers, politely, what happens in the room — who joined, left or was removed, a lock
 * changed — from the room's event lines, so that a reconnect (which lists only who came and went
 * meanwhile) is no noise. Each line is said once (RoomAnnouncements): while the chat is open its log
 * (a live region of its own) reads it, so this region speaks only while the chat is closed. New
 * messages are the log's.
 */
export function RoomAnnouncer({ roomAddress, chatShown }: { roomAddress: string; chatShown: boolean }) {
  const events = useAtomValue(roomEventsAtomFamily(roomAddress));
  const store = useStore();
  const chatOpen = useRef(chatShown);
  chatOpen.current = chatShown;
  const announcements = useRef<RoomAnnouncements | undefined>(undefined);
  // Numbered, so that the same words again (two people named alike joining) are a new node the
  // region announces, not a text set to what it already was.
  const [announcement, setAnnouncement] = useState({ text: '', count: 0 });

  useEffect(() => {
    const made = new RoomAnnouncements({
      clock: systemClock,
      stillShown: roomEventStillShown(store, roomAddress),
      stillHeld: roomLeaveStillHeld(store, roomAddress),
      chatShown: () => chatOpen.current,
      say: (text) => setAnnouncement((previous) => ({ text, count: previous.count + 1 })),
    });
    announcements.current = made;
    return () => made.dispose();
  }, [roomAddress, store]);

  useEffect(() => {
    announcements.current?.look(events);
  }, [events]);

  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-label="Room events">
      <span key={announcement.count}>{announcement.text}</span>
    </div>
  );
}
