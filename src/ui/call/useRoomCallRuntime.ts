import { useLayoutEffect, useState } from 'react';
import { errorMessage } from '../../common/errorMessage';
import { consoleLogger } from '../../common/logger';
import type { CallRuntime } from '../../main-thread/callTab/CallRuntime';
import { useTab } from '../tabContext';

const callLog = consoleLogger('[parley call]');

/**
 * The call runtime of the room this view shows, while it shows it: created once the room has an
 * address, disposed when the view goes (or the room moves to another address). Made as the render
 * that shows the address commits, not a frame later (a layout effect; the call's code is loaded by
 * then): "Join call" then shows in the same task (issue 14, the join path).
 */
export function useRoomCallRuntime(roomAddress: string | undefined): CallRuntime | undefined {
  const tab = useTab();
  const [runtime, setRuntime] = useState<CallRuntime | undefined>(undefined);
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
        setRuntime(loaded);
      },
      (error: unknown) => callLog.error(`the call could not be loaded: ${errorMessage(error)}`),
    );
    return () => {
      gone = true;
      created?.dispose();
      setRuntime(undefined);
    };
  }, [roomAddress, tab]);
  return runtime?.roomAddress === roomAddress ? runtime : undefined;
}
