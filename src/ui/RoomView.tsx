import { useAtomValue } from 'jotai';
import { Suspense, useCallback, useEffect } from 'react';
import { roomPeerCountAtomFamily } from '../main-thread/sessionAtoms';
import { CallRuntimeContext } from './call/callRuntimeContext';
import { PendingCallPreview } from './call/CallPreview';
import { CallStage } from './call/CallStage';
import { useRoomCallRuntime } from './call/useRoomCallRuntime';
import { ChatPanel } from './ChatPanel';
import { ParticipantsList } from './ParticipantsList';
import { useRoomLayout } from './roomLayout';
import { LockedRoomPrompt } from './LockedRoomPrompt';
import { RoomEnded } from './RoomEnded';
import { notInRoom } from './roomEnd';
import { RoomHeader } from './RoomHeader';
import { AttentionAlertsLater, RoomAlertsLater } from './RoomAlertsLater';
import { RoomAnnouncer } from './RoomAnnouncer';
import { RoomStatus } from './RoomStatus';
import { navigate } from './route';
import { ROOM_REGION_IDS, SkipLinks } from './SkipLinks';
import { useMovedRoomAddress } from './useMovedRoomAddress';
import { useRememberRoom } from './useRememberRoom';
import { leaveOpenedRoom } from './useOpenRoom';
import { useRoomOfView } from './useRoomOfView';
import { useTab } from './tabContext';
import { PartFailure } from './PartFailure';

/**
 * A room (`/<room>`): the call fills the page; People and Chat are side panels the person opens and
 * closes (remembered, `roomLayout.ts`), beside the call where they fit and over it where they do not.
 * The header (`RoomHeader`) holds the room's name, the connection, the room's actions and the panels' toggles.
 */
export function RoomView({ roomName }: { roomName: string }) {
  const tab = useTab();
  // Not auto-joined (SPEC §4 autoJoinCall false): the call starts from the preview's "Join call".
  const { room, openError, end, rejoin, chatAddress } = useRoomOfView(roomName, false);
  const layout = useRoomLayout();
  // Closed until the person opens them (roomLayout.ts): the call fills the window.
  const peopleShown = layout.people;
  const chatShown = layout.chat;
  const roomAddress = room?.address;
  const peopleCount = useAtomValue(roomPeerCountAtomFamily(roomAddress ?? ''));
  const isOwner = Boolean(room?.joined && room.selfAffiliation === 'owner');
  const unread = room?.unreadCount ?? 0;
  const shownName = room?.providedName ?? roomName;
  // The room tab runs the call from the moment the room's address is known, before the room is joined
  // (issue 14, the join path: the preview and "Join call" need not wait for the room's answer, and a
  // call joined meanwhile goes out with the join), and keeps it through reconnects. A room that could
  // not be opened (a name that cannot name a room), that we are not in (`notInRoom`), or that has
  // ended for us (kicked, banned, destroyed, left from another tab), has no call: its media and
  // connections go.
  const callPossible = !openError && !end && !notInRoom(room);
  // By the room's name now: moved to an alternate room, the call, its "Join call" and what a reload
  // brings back are the new room's (the address bar names it too).
  const { runtime: callRuntime, joinAsked, askToJoin, loadFailed: callLoadFailed } = useRoomCallRuntime(callPossible ? roomAddress : undefined, shownName);
  // The camera and microphone asked for as the page loaded are for the call runtime: a view that goes,
  // or whose room cannot have a call, before one took them lets them go.
  useEffect(() => {
    const releasePreviewCapture = (): void => void tab.calls().then((calls) => calls.releasePreviewCapture(), () => undefined);
    if (!callPossible) releasePreviewCapture();
    return releasePreviewCapture;
  }, [callPossible, tab]);

  useMovedRoomAddress(roomName, room);
  useRememberRoom(shownName, Boolean(room?.joined));
  const leave = useCallback(() => {
    leaveOpenedRoom(roomName);
    navigate('/', { leftRoom: shownName });
  }, [roomName, shownName]);
  useEffect(() => {
    document.title = `${unread > 0 ? `(${unread}) ` : ''}${shownName} · Parley`;
  }, [shownName, unread]);

  const peoplePanelShown = peopleShown && !end;
  const panelsClass = [peoplePanelShown ? 'has-people' : '', chatShown ? 'has-chat' : '', end ? 'is-ended' : ''].filter(Boolean).join(' ');

  return (
    <div className="room-page">
      <SkipLinks peopleShown={peoplePanelShown} chatShown={chatShown} />
      <RoomHeader
        shownName={shownName}
        roomAddress={roomAddress}
        locked={Boolean(room?.passwordRequired && room.joined)}
        owner={isOwner}
        peopleCount={peopleCount}
        unread={unread}
        peopleShown={peopleShown}
        chatShown={chatShown}
        ended={Boolean(end)}
        onLeave={leave}
      />
      <RoomStatus roomName={roomName} room={room} openError={openError} ended={Boolean(end)} />
      {roomAddress && <RoomAnnouncer roomAddress={roomAddress} chatShown={chatShown} />}
      <Suspense fallback={null}>
        {roomAddress && <AttentionAlertsLater roomAddress={roomAddress} chatShown={chatShown} />}
        {roomAddress && <RoomAlertsLater roomAddress={roomAddress} roomName={shownName} />}
      </Suspense>
      <main className={`room-body ${panelsClass}`}>
        <PartFailure part="The call" id={ROOM_REGION_IDS.call}>
          {end ? (
            <RoomEnded end={end} onRejoin={rejoin} />
          ) : callRuntime ? (
            <CallRuntimeContext value={callRuntime}>
              <CallStage id={ROOM_REGION_IDS.call} roomName={shownName} />
            </CallRuntimeContext>
          ) : callPossible ? (
            <section id={ROOM_REGION_IDS.call} className="call-stage" aria-label="Call">
              <PendingCallPreview joinAsked={joinAsked} onJoin={askToJoin} loadFailed={callLoadFailed} roomName={shownName} />
            </section>
          ) : room?.roomState === 'password-required' ? (
            // A locked room we were never in: its password is the way in, in the middle of the page.
            <section id={ROOM_REGION_IDS.call} className="call-stage room-gate">
              <div role="status" aria-label="Room state" className="card room-gate-card">
                <LockedRoomPrompt room={room} />
              </div>
            </section>
          ) : (
            <section id={ROOM_REGION_IDS.call} className="call-stage placeholder" aria-hidden="true" />
          )}
        </PartFailure>
        <div className="side-panels">
          {!end && (
            <div className="side-panel people-panel" hidden={!peoplePanelShown}>
              <PartFailure part="The people list" id={ROOM_REGION_IDS.people}>
                {room && roomAddress ? (
                  <ParticipantsList id={ROOM_REGION_IDS.people} room={room} roomAddress={roomAddress} />
                ) : (
                  <section id={ROOM_REGION_IDS.people} className="card participants placeholder" aria-hidden="true" />
                )}
              </PartFailure>
            </div>
          )}
          <div id={ROOM_REGION_IDS.chat} className="side-panel chat-column" hidden={!chatShown}>
            <PartFailure part="The chat">
              <ChatPanel room={room} roomAddress={chatAddress} shown={chatShown} end={end} />
            </PartFailure>
          </div>
        </div>
      </main>
    </div>
  );
}
