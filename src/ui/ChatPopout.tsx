import { Suspense, useEffect } from 'react';
import { ChatPanel } from './ChatPanel';
import { ConnectionStatus } from './ConnectionStatus';
import { AttentionAlertsLater, RoomAlertsLater } from './RoomAlertsLater';
import { RoomStatus } from './RoomStatus';
import { useRoomOfView } from './useRoomOfView';

/** The pop-out chat (`/<room>?view=chat`): the room's chat alone, in a tab that never captures media. */
export function ChatPopout({ roomName }: { roomName: string }) {
  const { room, openError, ended } = useRoomOfView(roomName, false);
  const unread = room?.unreadCount ?? 0;

  useEffect(() => {
    document.title = `${unread > 0 ? `(${unread}) ` : ''}Chat · ${roomName} · Parley`;
  }, [roomName, unread]);

  return (
    <div className="popout-page">
      <header className="topbar compact">
        <div className="room-title">
          <h1>{room?.providedName ?? roomName}</h1>
          <ConnectionStatus />
        </div>
      </header>
      <RoomStatus room={room} openError={openError} ended={ended} />
      <Suspense fallback={null}>
        {room?.address && <AttentionAlertsLater roomAddress={room.address} />}
        {room?.address && <RoomAlertsLater roomAddress={room.address} roomName={roomName} />}
      </Suspense>
      <main className="popout-main">
        <ChatPanel room={room} />
      </main>
    </div>
  );
}
