import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { errorMessage } from '../../common/errorMessage';
import { consoleLogger } from '../../common/logger';
import type { CallRuntime } from '../../main-thread/callTab/CallRuntime';
import { useTab } from '../tabContext';

const callLog = consoleLogger('[parley call]');

/** The room's call runtime once it is up, and "Join call" for the time before. */
export interface RoomCall {
  readonly runtime: CallRuntime | undefined;
  /** "Join call" was clicked before the runtime was up: it joins as the runtime starts. */
  readonly joinAsked: boolean;
  /** "Join call" before the runtime is up (the room's address is still being looked up, or the call's code is loading). */
  readonly askToJoin: () => void;
  /** The call's code could not be loaded (the network dropped as the page loaded): the call cannot start until a reload. */
  readonly loadFailed: boolean;
}

/**
 * The call runtime of the room this view shows, while it shows it: created once the room has an
 * address, disposed when the view goes (or the room moves to another address). Made as the render
 * that shows the address commits, not a frame later (a layout effect; the call's code is loaded by
 * then). "Join call" is offered before that (issue 14, the join path): a click made meanwhile joins
 * as the runtime starts, so the call goes out with the room's join instead of a round trip after it.
 */
export function useRoomCallRuntime(roomAddress: string | undefined): RoomCall {
  const tab = useTab();
  const [runtime, setRuntime] = useState<CallRuntime | undefined>(undefined);
  const [joinAsked, setJoinAsked] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  // Read by the effect below when the runtime arrives, whatever render it closed over.
  const joinAskedRef = useRef(false);
  const askToJoin = useCallback(() => {
    joinAskedRef.current = true;
    setJoinAsked(true);
  }, []);
  useLayoutEffect(() => {
    if (!roomAddress) return;
    // The call's code is a chunk of its own (TabCalls.loadCallCode): the view may go while it loads.
    let gone = false;
    let created: CallRuntime | undefined;
    tab.calls().then((calls) => calls.createCallRuntime(roomAddress)).then(
      (loaded) => {
        if (gone) return;
        created = loaded;
        loaded.start();
        if (joinAskedRef.current) {
          joinAskedRef.current = false;
          setJoinAsked(false);
          void loaded.joinCall();
        }
        setRuntime(loaded);
      },
      (error: unknown) => {
        callLog.error(`the call could not be loaded: ${errorMessage(error)}`);
        if (gone) return;
        joinAskedRef.current = false;
        setJoinAsked(false);
        setLoadFailed(true);
      },
    );
    return () => {
      gone = true;
      created?.dispose();
      setRuntime(undefined);
    };
  }, [roomAddress, tab]);
  return { runtime: runtime?.roomAddress === roomAddress ? runtime : undefined, joinAsked, askToJoin, loadFailed };
}
