import { createContext, useContext } from 'react';
import type { CallRuntime } from '../../main-thread/callTab/CallRuntime';

/** The room's call runtime, for the call's components: they read its atoms and call its actions. */
export const CallRuntimeContext = createContext<CallRuntime | undefined>(undefined);

export function useCallRuntime(): CallRuntime {
  const runtime = useContext(CallRuntimeContext);
  if (!runtime) throw new Error('a CallRuntimeContext provider is missing');
  return runtime;
}
