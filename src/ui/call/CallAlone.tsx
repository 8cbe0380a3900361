import { useAtomValue } from 'jotai';
import { useEffect, useRef } from 'react';
import { focusLost } from '../focusLost';
import { InviteButtons } from '../InviteButtons';
import { useCallRuntime } from './callRuntimeContext';
import { focusCallControl } from './focusCallControl';

/**
 * In the call with nobody else in it yet: says so, with the room's link to send, as call apps tell a
 * person waiting alone. Only once the room has said who is in the call (`othersInCall`), so it never
 * shows while the others are still on their way to this page. It goes as someone joins: should it
 * take the focus with it ("Copy link" just used), the focus goes to the call's controls.
 */
export function CallAlone({ roomName }: { roomName: string }) {
  const runtime = useCallRuntime();
  const othersInCall = useAtomValue(runtime.atoms.othersInCall);
  const tiles = useAtomValue(runtime.atoms.tiles);
  const block = useRef<HTMLDivElement>(null);
  // Where the block stood and whether it had the focus, read as the render that takes it away begins.
  const goneWithFocus = useRef<Element | undefined>(undefined);
  const alone = othersInCall !== undefined && othersInCall.length === 0 && !tiles.some((tile) => !tile.isSelf);
  if (!alone && block.current?.contains(document.activeElement)) goneWithFocus.current = block.current.parentElement ?? undefined;
  useEffect(() => {
    const stage = goneWithFocus.current;
    if (alone || !stage) return;
    goneWithFocus.current = undefined;
    if (focusLost()) focusCallControl(stage);
  }, [alone]);
  if (!alone) return null;
  return (
    <div ref={block} className="call-alone">
      <p>Nobody else is in the call yet. Anyone who opens this room’s link can join you.</p>
      <InviteButtons roomName={roomName} />
    </div>
  );
}
