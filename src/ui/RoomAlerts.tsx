import { useAtomValue, useStore } from 'jotai';
import { useEffect, useRef, type RefObject } from 'react';
import { systemClock } from '../common/clock';
import { showDesktopNotice, type ShownNotice } from '../main-thread/alerts/desktopNotifications';
import { holdRoomAlerts, type RoomAlertSeat } from '../main-thread/alerts/roomAlertSeat';
import { MessageNoticeHold } from '../main-thread/alerts/MessageNoticeHold';
import { LeaveHold } from '../main-thread/alerts/LeaveHold';
import { isMessageNotice, RoomArrivals } from '../main-thread/alerts/RoomArrivals';
import { playTone } from '../main-thread/alerts/tones';
import { attentionPeersAtomFamily, preferencesAtom, roomByAddressAtomFamily, roomEventsAtomFamily, roomLeaveStillHeld, roomEventStillShown, roomMessagesAtomFamily } from '../main-thread/sessionAtoms';

function closeNotice(notice: RefObject<ShownNotice | undefined>): void {
  notice.current?.close();
  notice.current = undefined;
}

/**
 * A room's tones (the preference sounds, off by default) and desktop notifications (for a message
 * or an attention request while this tab is hidden), from one tab per room; a message's waits a
 * moment, and goes if a visible chat (the pop-out) read it meanwhile; so does a plain leave's tone,
 * which goes if the leave turned out to be a reconnection (LeaveHold). A notification shown is closed
 * once it says nothing new: a message's when the room is read, an attention request's when it is over
 * or this tab is seen, every one when the room's view or the page goes. Notifications are asked for
 * where the person takes part: sending a message (ChatPanel), clicking "Join call" (CallPreview).
 */
export function RoomAlerts({ roomAddress, roomName }: { roomAddress: string; roomName: string }) {
  const messages = useAtomValue(roomMessagesAtomFamily(roomAddress));
  const events = useAtomValue(roomEventsAtomFamily(roomAddress));
  const roomRecord = useAtomValue(roomByAddressAtomFamily(roomAddress));
  const joinedAt = roomRecord?.joined === true ? roomRecord.joinedAt : undefined;
  const attentionAsked = useAtomValue(attentionPeersAtomFamily(roomAddress)).length > 0;
  const sounds = useAtomValue(preferencesAtom).sounds;
  const soundsOn = useRef(sounds);
  soundsOn.current = sounds;
  const arrivals = useRef<RoomArrivals | undefined>(undefined);
  const seat = useRef<RoomAlertSeat | undefined>(undefined);
  const store = useStore();
  const messageNotices = useRef<MessageNoticeHold | undefined>(undefined);
  const attentionNotice = useRef<ShownNotice | undefined>(undefined);
  const leaveTones = useRef<LeaveHold | undefined>(undefined);

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
    const closeNotices = () => {
      notices.dispose();
      closeNotice(attentionNotice);
    };
    const onVisibilityChange = () => {
      if (document.visibilityState === 'visible') closeNotice(attentionNotice);
    };
    // A closed tab's notifications would stay, and bring forward a tab that is gone.
    window.addEventListener('pagehide', closeNotices);
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      held.release();
      unsubscribe();
      leaves.dispose();
      closeNotices();
      window.removeEventListener('pagehide', closeNotices);
      document.removeEventListener('visibilitychange', onVisibilityChange);
    };
  }, [roomAddress, store]);

  // Before the arrivals: a request already over when a late effect shows its notice leaves it shown.
  useEffect(() => {
    if (!attentionAsked) closeNotice(attentionNotice);
  }, [attentionAsked]);

  useEffect(() => {
    arrivals.current ??= new RoomArrivals(roomName);
    const alerts = arrivals.current.look(messages, events, joinedAt);
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
      else attentionNotice.current = showDesktopNotice(notice) ?? attentionNotice.current;
    }
  }, [messages, events, roomName, joinedAt]);

  return null;
}
