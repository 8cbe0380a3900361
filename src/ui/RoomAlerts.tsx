import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { askForNotificationsOnce, showDesktopNotice } from '../main-thread/alerts/desktopNotifications';
import { holdRoomAlerts, type RoomAlertSeat } from '../main-thread/alerts/roomAlertSeat';
import { RoomArrivals } from '../main-thread/alerts/RoomArrivals';
import { playTone } from '../main-thread/alerts/tones';
import { callAtomFamily, preferencesAtom, roomEventsAtomFamily, roomMessagesAtomFamily } from '../main-thread/sessionAtoms';

/**
 * A room's tones (the preference sounds, off by default) and desktop notifications (for a message
 * or an attention request while this tab is hidden), from one tab per room. Joining the call is a
 * moment to ask for notifications, as sending a message is (ChatPanel).
 */
export function RoomAlerts({ roomAddress, roomName }: { roomAddress: string; roomName: string }) {
  const messages = useAtomValue(roomMessagesAtomFamily(roomAddress));
  const events = useAtomValue(roomEventsAtomFamily(roomAddress));
  const inCall = useAtomValue(callAtomFamily(roomAddress))?.joined ?? false;
  const sounds = useAtomValue(preferencesAtom).sounds;
  const soundsOn = useRef(sounds);
  soundsOn.current = sounds;
  const arrivals = useRef<RoomArrivals | undefined>(undefined);
  const seat = useRef<RoomAlertSeat | undefined>(undefined);
  const wasInCall = useRef(inCall);

  useEffect(() => {
    const held = holdRoomAlerts(roomAddress);
    seat.current = held;
    arrivals.current = undefined;
    return () => held.release();
  }, [roomAddress]);

  useEffect(() => {
    arrivals.current ??= new RoomArrivals(roomName);
    const alerts = arrivals.current.look(messages, events);
    if (!seat.current?.held) return;
    if (soundsOn.current && alerts.tone) playTone(alerts.tone);
    if (document.visibilityState === 'hidden') alerts.notices.forEach(showDesktopNotice);
  }, [messages, events, roomName]);

  useEffect(() => {
    if (inCall && !wasInCall.current) askForNotificationsOnce();
    wasInCall.current = inCall;
  }, [inCall]);

  return null;
}
