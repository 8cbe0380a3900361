import { memo, Suspense } from 'react';
import { AppLink } from './AppLink';
import { ConnectionStatus } from './ConnectionStatus';
import { InviteButtons } from './InviteButtons';
import { LockIcon } from './Icon';
import { lazyComponent } from './lazyComponent';
import { PanelToggle } from './PanelToggle';
import { ChatIcon, LeaveIcon, PeopleIcon } from './RoomIcons';
import { changeRoomLayout } from './roomLayout';
import { RoomMenu } from './RoomMenu';
import { roomPath } from './route';
import { ROOM_REGION_IDS } from './SkipLinks';

// The owner's controls (and the room-name rules destroying a room uses) come after the first frame.
const LockRoomControl = lazyComponent(() => import('./LockRoomControl'), 'LockRoomControl');
const DestroyRoomControl = lazyComponent(() => import('./DestroyRoomControl'), 'DestroyRoomControl');

interface RoomHeaderProps {
  /** The room's name as the room gives it, else as the address has it. */
  shownName: string;
  /** Known once the room config lookup has answered. */
  roomAddress: string | undefined;
  /** Joined with a password required (SPEC §4 lock state). */
  locked: boolean;
  /** Joined as the room's owner: the lock and destroy controls are offered. */
  owner: boolean;
  peopleCount: number;
  unread: number;
  peopleShown: boolean;
  chatShown: boolean;
  /** The room has ended for us: there is no one to show, and nothing to invite to. */
  ended: boolean;
  /** "Leave": out of the room (in every tab of yours) and home. */
  onLeave: () => void;
}

/**
 * The room page's header: its name, the connection, the room's actions and the panels' toggles.
 * Its props are plain values, so that the room's many patches while joining (its address, its
 * state, who is in it, the call) re-render it only when one of them changes (issue 14, long tasks
 * while joining: re-rendered with the room view, it was a fifth of the components a join rendered).
 */
export const RoomHeader = memo(function RoomHeader({ shownName, roomAddress, locked, owner, peopleCount, unread, peopleShown, chatShown, ended, onLeave }: RoomHeaderProps) {
  return (
    <header className="topbar">
      <div className="room-title">
        <AppLink className="brand small" href="/">
          Parley
        </AppLink>
        <h1>{shownName}</h1>
        {locked && (
          <span className="chip chip-locked">
            <LockIcon /> <span className="chip-label">locked</span>
          </span>
        )}
        <ConnectionStatus />
      </div>
      <nav className="toolbar" aria-label="Room controls">
        {/* An ended room has nothing to invite to or pop out, and no one to show: its screen offers the way on. */}
        {!ended && (
          <>
            <RoomMenu>
              <InviteButtons roomName={shownName} />
              <Suspense fallback={null}>
                {owner && roomAddress && <LockRoomControl locked={locked} roomAddress={roomAddress} />}
                {owner && roomAddress && <DestroyRoomControl roomAddress={roomAddress} />}
              </Suspense>
              <button type="button" className="button" onClick={() => window.open(roomPath(shownName, 'chat'), '_blank', 'noopener')}>
                Pop out chat
              </button>
            </RoomMenu>
            <PanelToggle
              label="People"
              icon={<PeopleIcon />}
              open={peopleShown}
              panelId={ROOM_REGION_IDS.people}
              onToggle={() => changeRoomLayout({ people: !peopleShown })}
              badge={{ count: peopleCount }}
            />
          </>
        )}
        <PanelToggle
          label="Chat"
          icon={<ChatIcon />}
          open={chatShown}
          panelId={ROOM_REGION_IDS.chat}
          onToggle={() => changeRoomLayout({ chat: !chatShown })}
          badge={{ count: unread, words: 'unread' }}
        />
        <button type="button" className="button danger-outline leave-room" onClick={onLeave}>
          <LeaveIcon />
          <span className="button-label">Leave</span>
        </button>
      </nav>
    </header>
  );
});
