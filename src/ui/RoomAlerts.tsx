import { useAtomValue, useStore } from 'jotai';
import { useEffect, useRef } from 'react';
import { systemClock } from '../common/clock';
import { askForNotificationsOnce, showDesktopNotice } from '../main-thread/alerts/desktopNotifications';
import { holdRoomAlerts, type RoomAlertSeat } from '../main-thread/alerts/roomAlertSeat';
import { MessageNoticeHold } from '../main-thread/alerts/MessageNoticeHold';
import { LeaveHold } from '../main-thread/alerts/LeaveHold';
import { isMessageNotice, RoomArrivals } from '../main-thread/alerts/RoomArrivals';
import { playTone } from '../main-thread/alerts/tones';
import { callAtomFamily, preferencesAtom, roomByAddressAtomFamily, roomEventsAtomFamily, roomLeaveStillHeld, roomEventStillShown, roomMessagesAtomFamily } from '../main-thread/sessionAtoms';

/**
 * A room's tones (the preference sounds, off by default) and desktop notifications (for a message
 * or an attention request while this tab is hidden), from one tab per room; a message's waits a
 * moment, and goes if a visible chat (the pop-out) read it meanwhile; so does a plain leave's tone,
 * which goes if the leave turned out to be a reconnection (LeaveHold). Joining the call is a
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
  const store = useStore();
  const messageNotices = useRef<MessageNoticeHold | undefined>(undefined);
  const leaveTones = useRef<LeaveHold | undefined>(undefined);
  const wasInCall = useRef(inCall);

  useEffect(() => {
    const held = holdRoomAlerts(roomAddress);
    seat.current = held;
    arrivals.current = undefined;
    const room = roomByAddressAtomFamily(roomAddress);
    const unreadCount = () => store.get(room)?.unreadCount ?? 0;
    const notices = new MessageNoticeHold({ clock: systemClock, unreadCount, show: showDesktopNotice });
    messageNotices.current = notices;
    const leaves = new LeaveHold({ clock: systemClock, stillShown: roomEventStillShown(store, roomAddress), stillHeld: roomLeaveStillHeld(store, roomAddress) });
    leaveTones.current = leaves;
    // Heard as the state changes, not in an effect: a hidden tab runs its effects late.
    const unsubscribe = store.sub(room, () => {
      if (unreadCount() === 0) notices.read();
    });
    return () => {
      held.release();
      unsubscribe();
      notices.dispose();
      leaves.dispose();
    };
  }, [roomAddress, store]);

  useEffect(() => {
    arrivals.current ??= new RoomArrivals(roomName);
    const alerts = arrivals.current.look(messages, events);
    if (!seat.current?.held) return;
    if (soundsOn.current && alerts.tone) playTone(alerts.tone);
    if (soundsOn.current && alerts.departures.length > 0) {
      leaveTones.current?.hold(alerts.departures, () => {
        if (soundsOn.current) playTone('left');
      });
    }
    if (document.visibilityState !== 'hidden') return;
    for (const notice of alerts.notices) {
      if (isMessageNotice(notice)) messageNotices.current?.hold(notice);
      else showDesktopNotice(notice);
    }
  }, [messages, events, roomName]);

  useEffect(() => {
    if (inCall && !wasInCall.current) askForNotificationsOnce();
    wasInCall.current = inCall;
  }, [inCall]);

  return null;
}
