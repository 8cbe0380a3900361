import { useAtomValue } from 'jotai';
import { InviteButtons } from '../InviteButtons';
import { useCallRuntime } from './callRuntimeContext';

/**
 * In the call with nobody else in it yet: says so, with the room's link to send, as call apps tell a
 * person waiting alone. Only once the room has said who is in the call (`othersInCall`), so it never
 * shows while the others are still on their way to this page.
 */
export function CallAlone({ roomName }: { roomName: string }) {
  const runtime = useCallRuntime();
  const othersInCall = useAtomValue(runtime.atoms.othersInCall);
  const tiles = useAtomValue(runtime.atoms.tiles);
  if (othersInCall === undefined || othersInCall.length > 0 || tiles.some((tile) => !tile.isSelf)) return null;
  return (
    <div className="call-alone">
      <p>Nobody else is in the call yet. Anyone who opens this room’s link can join you.</p>
      <InviteButtons roomName={roomName} />
    </div>
  );
}
