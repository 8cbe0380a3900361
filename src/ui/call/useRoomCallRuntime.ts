import { useStore } from 'jotai';
import { useEffect, useState } from 'react';
import type { CallRuntime } from '../../main-thread/callTab/CallRuntime';
import { createTabCallRuntime } from '../../main-thread/callTab/createTabCallRuntime';
import { useAnalysisWorker, useBridge } from '../bridgeContext';

/**
 * The call runtime of the room this view shows, while it shows it: created once the room has an
 * address, disposed when the view goes (or the room moves to another address).
 */
export function useRoomCallRuntime(roomAddress: string | undefined): CallRuntime | undefined {
  const bridge = useBridge();
  const store = useStore();
  const analysisWorker = useAnalysisWorker();
  const [runtime, setRuntime] = useState<CallRuntime | undefined>(undefined);
  useEffect(() => {
    if (!roomAddress) return;
    const created = createTabCallRuntime({ roomAddress, bridge, store, analysis: analysisWorker() });
    created.start();
    setRuntime(created);
    return () => {
      created.dispose();
      setRuntime(undefined);
    };
  }, [roomAddress, bridge, store, analysisWorker]);
  return runtime?.roomAddress === roomAddress ? runtime : undefined;
}
