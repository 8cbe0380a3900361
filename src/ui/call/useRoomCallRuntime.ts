import { useEffect, useState } from 'react';
import type { CallRuntime } from '../../main-thread/callTab/CallRuntime';
import { useTab } from '../tabContext';

/**
 * The call runtime of the room this view shows, while it shows it: created once the room has an
 * address, disposed when the view goes (or the room moves to another address).
 */
export function useRoomCallRuntime(roomAddress: string | undefined): CallRuntime | undefined {
  const tab = useTab();
  const [runtime, setRuntime] = useState<CallRuntime | undefined>(undefined);
  useEffect(() => {
    if (!roomAddress) return;
    const created = tab.createCallRuntime(roomAddress);
    created.start();
    setRuntime(created);
    return () => {
      created.dispose();
      setRuntime(undefined);
    };
  }, [roomAddress, tab]);
  return runtime?.roomAddress === roomAddress ? runtime : undefined;
}
