import { useAtomValue } from 'jotai';
import { useCallback } from 'react';
import { otherJoinedCallsAtomFamily } from '../../main-thread/sessionAtoms';
import { useActions } from '../tabContext';

export interface OtherCalls {
  /** The names of the other rooms whose call you are in; empty when none. */
  readonly roomNames: readonly string[];
  /** Leaves them (a failure to leave one leaves you in it: the join goes on). */
  readonly leave: () => Promise<void>;
}

/**
 * The calls you are in in rooms other than the one opened by `roomName`, which joining its call
 * leaves: your camera and microphone are in one call at a time, so nothing you say to one room is
 * heard in another.
 */
export function useOtherCalls(roomName: string): OtherCalls {
  const others = useAtomValue(otherJoinedCallsAtomFamily(roomName));
  const actions = useActions();
  const leave = useCallback(async () => {
    await Promise.all(others.map((call) => actions.rooms.leaveCall(call.roomAddress).catch(() => undefined)));
  }, [others, actions]);
  return { roomNames: others.map((call) => call.roomName), leave };
}
