import { useAtomValue, useStore } from 'jotai';
import { useEffect, useRef } from 'react';
import { systemClock } from '../common/clock';
import { showDesktopNotice } from '../main-thread/alerts/desktopNotifications';
import { holdRoomAlerts, type RoomAlertSeat } from '../main-thread/alerts/roomAlertSeat';
import { NoticeHold } from '../main-thread/alerts/NoticeHold';
import { LeaveHold } from '../main-thread/alerts/LeaveHold';
import { isMessageNotice, RoomArrivals } from '../main-thread/alerts/RoomArrivals';
import { roomSeen, showRoomSeen } from '../main-thread/alerts/roomSeen';
import { playTone } from '../main-thread/alerts/tones';
import { MESSAGE_NOTICE_HOLD_MS } from '../protocol/clientDefaults';
import { attentionPeersAtomFamily, preferencesAtom, roomByAddressAtomFamily, roomEventsAtomFamily, roomLeaveStillHeld, roomEventStillShown, roomMessagesAtomFamily } from '../main-thread/sessionAtoms';

/**
 * A room's tones (the preference sounds, off by default) and desktop notifications (for a message
 * or an attention request while this tab is hidden), from one tab per room; a notification is not
 * shown while another tab of the room is seen (the pop-out chat, which shows the message or the
 * attention banner), and a message's waits a moment, and goes if a visible chat read it meanwhile
 * (NoticeHold); so does a plain leave's tone, which goes if the leave turned out to be a
 * reconnection (LeaveHold). A notification shown is closed once it says nothing new: a message's
 * when the room is read, an attention request's when it is over or this tab is seen, every one when
 * the room's view or the page goes. Notifications are asked for where the person takes part: sending
 * a message (ChatPanel), clicking "Join call" (CallPreview).
 */
export function RoomAlerts({ roomAddress, roomName }: { roomAddress: string; roomName: string }) {
  const messages = useAtomValue(roomMessagesAtomFamily(roomAddress));
  const events = useAtomValue(roomEventsAtomFamily(roomAddress));
  const roomRecord = useAtomValue(roomByAddressAtomFamily(roomAddress));
  const joinedAt = roomRecord?.joined === true ? roomRecord.joinedAt : undefined;
  const sounds = useAtomValue(preferencesAtom).sounds;
  const soundsOn = useRef(sounds);
  soundsOn.current = sounds;
  const arrivals = useRef<RoomArrivals | undefined>(undefined);
  const seat = useRef<RoomAlertSeat | undefined>(undefined);
  const store = useStore();
  const messageNotices = useRef<NoticeHold | undefined>(undefined);
  const attentionNotices = useRef<NoticeHold | undefined>(undefined);
  const leaveTones = useRef<LeaveHold | undefined>(undefined);

  useEffect(() => {
    const held = holdRoomAlerts(roomAddress);
    seat.current = held;
    arrivals.current = undefined;
    const stopShowingSeen = showRoomSeen(roomAddress);
    const seen = () => roomSeen(roomAddress);
    const room = roomByAddressAtomFamily(roomAddress);
    const unreadCount = () => store.get(room)?.unreadCount ?? 0;
    const messageHold = new NoticeHold({ clock: systemClock, waitMs: MESSAGE_NOTICE_HOLD_MS, stillNews: () => unreadCount() > 0, roomSeen: seen, show: showDesktopNotice });
    messageNotices.current = messageHold;
    const attention = attentionPeersAtomFamily(roomAddress);
    const attentionAsked = () => store.get(attention).length > 0;
    // The attention banner shows at once wherever the room is seen: nothing to wait for.
    const attentionHold = new NoticeHold({ clock: systemClock, waitMs: 0, stillNews: attentionAsked, roomSeen: seen, show: showDesktopNotice });
    attentionNotices.current = attentionHold;
    const leaves = new LeaveHold({ clock: systemClock, stillShown: roomEventStillShown(store, roomAddress), stillHeld: roomLeaveStillHeld(store, roomAddress) });
    leaveTones.current = leaves;
    // Heard as the state changes, not in an effect: a hidden tab runs its effects late.
    const unsubscribes = [
      store.sub(room, () => {
        if (unreadCount() === 0) messageHold.over();
      }),
      store.sub(attention, () => {
        if (!attentionAsked()) attentionHold.over();
      }),
    ];
    const closeNotices = () => {
      messageHold.dispose();
      attentionHold.dispose();
    };
    const onVisibilityChange = () => {
      if (document.visibilityState === 'visible') attentionHold.over();
    };
    // A closed tab's notifications would stay, and bring forward a tab that is gone.
    window.addEventListener('pagehide', closeNotices);
    document.addEventListener('visibilitychange', onVisibilityChange);
    return () => {
      held.release();
      stopShowingSeen();
      for (const unsubscribe of unsubscribes) unsubscribe();
      leaves.dispose();
      closeNotices();
      window.removeEventListener('pagehide', closeNotices);
      document.removeEventListener('visibilitychange', onVisibilityChange);
    };
  }, [roomAddress, store]);

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
    for (const notice of alerts.notices) (isMessageNotice(notice) ? messageNotices : attentionNotices).current?.hold(notice);
  }, [messages, events, roomName, joinedAt]);

  return null;
}
