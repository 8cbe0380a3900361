import { Suspense, useEffect, useState } from 'react';
import { AttentionAlerts } from './AttentionAlerts';
import { CallRuntimeContext } from './call/callRuntimeContext';
import { CallStage } from './call/CallStage';
import { useRoomCallRuntime } from './call/useRoomCallRuntime';
import { ChatPanel } from './ChatPanel';
import { ConnectionStatus } from './ConnectionStatus';
import { InviteButtons } from './InviteButtons';
import { lazyComponent } from './lazyComponent';
import { LockIcon } from './LockIcon';
import { ParticipantsList } from './ParticipantsList';
import { navigate, roomPath } from './route';
import { roomEndOf } from './roomEnd';
import { RoomEnded } from './RoomEnded';
import { RoomAlerts } from './RoomAlerts';
import { RoomAnnouncer } from './RoomAnnouncer';
import { RoomStatus } from './RoomStatus';
import { ROOM_REGION_IDS, SkipLinks } from './SkipLinks';
import { useRoomOfView } from './useRoomOfView';

// The owner's controls (and the room-name rules destroying a room uses) come after the first frame.
const LockRoomControl = lazyComponent(() => import('./LockRoomControl'), 'LockRoomControl');
const DestroyRoomControl = lazyComponent(() => import('./DestroyRoomControl'), 'DestroyRoomControl');

/** A room (`/<room>`): its state, the people in it, owner controls, the call, and the chat. */
export function RoomView({ roomName }: { roomName: string }) {
  // Not auto-joined (SPEC §4 autoJoinCall false): the call starts from the preview's "Join call".
  const { room, openError, ended } = useRoomOfView(roomName, false);
  const [chatShown, setChatShown] = useState(true);
  const roomAddress = room?.address;
  const isOwner = Boolean(room?.joined && room.selfAffiliation === 'owner');
  const unread = room?.unreadCount ?? 0;
  const end = roomEndOf(room);
  // The room tab runs the call once the room has been joined (it keeps it through reconnects); a room
  // that has ended for us (kicked, banned, destroyed) has no call: the runtime's media and connections go.
  const callRuntime = useRoomCallRuntime(room?.joinedAt !== undefined && !end ? roomAddress : undefined);

  useEffect(() => {
    document.title = `${unread > 0 ? `(${unread}) ` : ''}${roomName} · Parley`;
  }, [roomName, unread]);

  return (
    <div className="room-page">
      <SkipLinks chatShown={chatShown} />
      <header className="topbar">
        <div className="room-title">
          <a
            className="brand small"
            href="/"
            onClick={(event) => {
              event.preventDefault();
              navigate('/');
            }}
          >
            Parley
          </a>
          <h1>{room?.providedName ?? roomName}</h1>
          {room?.passwordRequired && room.joined && (
            <span className="chip chip-locked">
              <LockIcon /> locked
            </span>
          )}
          <ConnectionStatus />
        </div>
        <nav className="toolbar" aria-label="Room controls">
          <Suspense fallback={null}>
            {isOwner && room && roomAddress && <LockRoomControl room={room} roomAddress={roomAddress} />}
            {isOwner && roomAddress && <DestroyRoomControl roomAddress={roomAddress} />}
          </Suspense>
          <InviteButtons roomName={room?.providedName ?? roomName} />
          <button type="button" className="button" onClick={() => window.open(roomPath(room?.providedName ?? roomName, 'chat'), '_blank', 'noopener')}>
            Pop out chat
          </button>
          <button
            type="button"
            className="button"
            aria-expanded={chatShown}
            aria-controls={ROOM_REGION_IDS.chat}
            onClick={() => setChatShown((shown) => !shown)}
          >
            {chatShown ? 'Hide chat' : 'Show chat'}
            {!chatShown && unread > 0 && ' '}
            {!chatShown && unread > 0 && (
              <span className="badge">
                {unread}
                <span className="visually-hidden"> unread</span>
              </span>
            )}
          </button>
          <button type="button" className="button danger-outline" onClick={() => navigate('/')}>
            Leave
          </button>
        </nav>
      </header>
      <RoomStatus room={room} openError={openError} ended={ended} />
      {roomAddress && <AttentionAlerts roomAddress={roomAddress} />}
      {roomAddress && <RoomAnnouncer roomAddress={roomAddress} />}
      {roomAddress && <RoomAlerts roomAddress={roomAddress} roomName={roomName} />}
      <main className={`room-body${chatShown ? '' : ' chat-hidden'}${end ? ' is-ended' : ''}`}>
        {end ? (
          <RoomEnded end={end} />
        ) : (
          <>
            {room && roomAddress ? (
              <ParticipantsList id={ROOM_REGION_IDS.people} room={room} roomAddress={roomAddress} />
            ) : (
              <section id={ROOM_REGION_IDS.people} className="card participants placeholder" aria-hidden="true" />
            )}
            {callRuntime ? (
              <CallRuntimeContext value={callRuntime}>
                <CallStage id={ROOM_REGION_IDS.call} roomName={room?.providedName ?? roomName} />
              </CallRuntimeContext>
            ) : (
              <section id={ROOM_REGION_IDS.call} className="card call-stage placeholder" aria-hidden="true" />
            )}
          </>
        )}
        <div id={ROOM_REGION_IDS.chat} className="chat-column" hidden={!chatShown}>
          <ChatPanel room={room} shown={chatShown} />
        </div>
      </main>
    </div>
  );
}
