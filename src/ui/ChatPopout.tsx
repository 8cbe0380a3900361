import { Suspense, useEffect } from 'react';
import { OwnMediaElsewhere } from './call/OwnMediaElsewhere';
import { ChatPanel } from './ChatPanel';
import { ConnectionStatus } from './ConnectionStatus';
import { LockedRoomPrompt } from './LockedRoomPrompt';
import { AttentionAlertsLater, RoomAlertsLater } from './RoomAlertsLater';
import { RoomEnded } from './RoomEnded';
import { RoomStatus } from './RoomStatus';
import { useMovedRoomAddress } from './useMovedRoomAddress';
import { useRoomOfView } from './useRoomOfView';

/**
 * The pop-out chat (`/<room>?view=chat`): the room's chat, in a tab that never captures media, with
 * your microphone and camera in the call when you are in it (the call's tab does what they ask).
 */
export function ChatPopout({ roomName }: { roomName: string }) {
  const { room, openError, end, rejoin, chatAddress } = useRoomOfView(roomName, false);
  const unread = room?.unreadCount ?? 0;
  const shownName = room?.providedName ?? roomName;
  useMovedRoomAddress(roomName, room);

  useEffect(() => {
    document.title = `${unread > 0 ? `(${unread}) ` : ''}Chat · ${shownName} · Parley`;
  }, [shownName, unread]);

  return (
    <div className="popout-page">
      <header className="topbar compact">
        <div className="room-title">
          <h1>{shownName}</h1>
          <ConnectionStatus />
        </div>
        {room?.address && <OwnMediaElsewhere roomAddress={room.address} offerHangUp />}
      </header>
      <RoomStatus roomName={roomName} room={room} openError={openError} ended={Boolean(end)} />
      {/* A locked room we were never in: RoomStatus leaves its prompt to the call's place, which this tab has not; it is here, above the chat. */}
      {room?.roomState === 'password-required' && room.joinedAt === undefined && (
        <div role="status" aria-label="Room state" className="banner banner-warning">
          <LockedRoomPrompt room={room} />
        </div>
      )}
      {/* Kicked, banned, the room destroyed or left: the same screen as the room's tab says why, above what was said. */}
      {end && <RoomEnded end={end} onRejoin={rejoin} />}
      <Suspense fallback={null}>
        {room?.address && <AttentionAlertsLater roomAddress={room.address} chatShown />}
        {room?.address && <RoomAlertsLater roomAddress={room.address} roomName={shownName} />}
      </Suspense>
      <main className="popout-main">
        <ChatPanel room={room} roomAddress={chatAddress} end={end} />
      </main>
    </div>
  );
}
