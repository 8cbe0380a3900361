import { useStore } from 'jotai';
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { errorMessage } from '../../common/errorMessage';
import { consoleLogger } from '../../common/logger';
import { keepCallForReload, takeCallAfterReload } from '../../main-thread/callTab/callAfterReload';
import type { CallRuntime } from '../../main-thread/callTab/CallRuntime';
import { callAtomFamily, otherJoinedCallsAtomFamily, roomByNameAtomFamily } from '../../main-thread/sessionAtoms';
import { useActions, useAttachSent, useTab } from '../tabContext';

const callLog = consoleLogger('[parley call]');

/** The room's call runtime once it is up, and "Join call" for the time before. */
export interface RoomCall {
  readonly runtime: CallRuntime | undefined;
  /** "Join call" was clicked before the runtime was up: its join has gone to the session, and the runtime starts in it. */
  readonly joinAsked: boolean;
  /** "Join call" before the runtime is up (the room's address is still being looked up, or the call's code is loading). */
  readonly askToJoin: () => void;
  /** The call's code could not be loaded (the network dropped as the page loaded): the call cannot start until a reload. */
  readonly loadFailed: boolean;
}

/**
 * The call runtime of the room this view shows (`roomName`), while it shows it: created once the
 * room has an address, disposed when the view goes (or the room moves to another address). Made as
 * the render that shows the address commits, not a frame later (a layout effect; the call's code is
 * loaded by then), and shown once its start has answered ("Join call" clicked: once the call's lock
 * has). "Join call" is offered before that (issue 14, the join path): a click made
 * meanwhile sends the call's join at once, by the room's name (`openRoom` with `autoJoinCall`), and
 * the session joins the call as the room has its address, so the call goes out with the room's join
 * presence whenever that has not gone yet; the runtime then starts in that join.
 */
export function useRoomCallRuntime(roomAddress: string | undefined, roomName: string): RoomCall {
  const tab = useTab();
  const actions = useActions();
  const store = useStore();
  const attachSent = useAttachSent();
  // The address whose call this view joined (and claimed) before its runtime was up.
  const joinedEarly = useRef<string | undefined>(undefined);
  const [runtime, setRuntime] = useState<CallRuntime | undefined>(undefined);
  const [joinAsked, setJoinAsked] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  // Read by the effect below when the runtime arrives, whatever render it closed over.
  const joinAskedRef = useRef(false);
  const askToJoin = useCallback(() => {
    joinAskedRef.current = true;
    setJoinAsked(true);
    const joining = attachSent.then(() => actions.openRoom(roomName, { autoJoinCall: true }));
    joining.catch((error: unknown) => {
      callLog.error(`joining the call failed: ${errorMessage(error)}`);
      // The room could not be opened: nothing joins, and "Join call" is not left saying "Joining…".
      joinAskedRef.current = false;
      setJoinAsked(false);
    });
  }, [attachSent, actions, roomName]);
  useLayoutEffect(() => {
    if (!roomAddress) return;
    // The call's code is a chunk of its own (TabCalls.loadCallCode): the view may go while it loads.
    let gone = false;
    let created: CallRuntime | undefined;
    // What "Join call" took ahead of the runtime (TabCalls.claimCallAhead), should no runtime take it over.
    const dropClaimAhead = (): void => void tab.calls().then((calls) => calls.dropCallAhead(roomAddress), () => undefined);
    tab.calls().then((calls) => calls.createCallRuntime(roomAddress)).then(
      (loaded) => {
        if (gone) {
          // Made after the view went: nobody else disposes it, and it holds the page's early capture.
          loaded.dispose();
          return;
        }
        created = loaded;
        const joinCall = joinAskedRef.current;
        joinAskedRef.current = false;
        // Joining, the stage (the page's biggest render) mounts once the call's lock has answered:
        // rendered first, it held the grant and the claim behind it.
        void loaded.start({ joinCall }).then(() => {
          if (gone) return;
          setJoinAsked(false);
          setRuntime(loaded);
        });
      },
      (error: unknown) => {
        callLog.error(`the call could not be loaded: ${errorMessage(error)}`);
        if (gone) return;
        joinAskedRef.current = false;
        setJoinAsked(false);
        setLoadFailed(true);
        // Nothing in this tab can run the call it joined: the room hears it left again, and the claim made for it goes.
        const joined = joinedEarly.current;
        joinedEarly.current = undefined;
        if (joined) actions.rooms.leaveCall(joined).catch((failure: unknown) => callLog.error(`leaving the call failed: ${errorMessage(failure)}`));
        dropClaimAhead();
      },
    );
    return () => {
      gone = true;
      created?.dispose();
      dropClaimAhead();
      setRuntime(undefined);
    };
  }, [roomAddress, tab, actions]);
  // Asked before the runtime is up: the call's lock and claim are taken as the room's address lands
  // in the store, so that the offers the join brings wait in this tab, not for the runtime.
  useEffect(() => {
    if (!joinAsked) return;
    const room = roomByNameAtomFamily(roomName);
    const claimOnceAddressed = (): void => {
      const address = store.get(room)?.address;
      if (!address || joinedEarly.current === address) return;
      joinedEarly.current = address;
      tab.calls().then((calls) => calls.claimCallAhead(address), () => undefined);
    };
    claimOnceAddressed();
    return store.sub(room, claimOnceAddressed);
  }, [joinAsked, roomName, store, tab]);
  useCallAcrossReload(runtime, roomName);
  return { runtime: runtime?.roomAddress === roomAddress ? runtime : undefined, joinAsked, askToJoin, loadFailed };
}

/**
 * A reload of the page in the call comes back into it: as the page goes while this tab runs the
 * call, what you were in is kept for this tab (callAfterReload); the page after it, if a reload (not
 * a closed tab reopened, nor Back), once its room is joined again and its runtime is up, joins the
 * call as you left it — unless a tab of yours still runs it (a pop-out kept the session), which this
 * one takes over as ever (CallSeat), or you joined another room's call meanwhile: the page then shows
 * its preview, which says so.
 */
function useCallAcrossReload(runtime: CallRuntime | undefined, roomName: string): void {
  const store = useStore();
  // Looked at once per page, as its room is first joined with the runtime up.
  const lookedAt = useRef(false);
  useEffect(() => {
    if (lookedAt.current || !runtime) return undefined;
    const room = roomByNameAtomFamily(roomName);
    const rejoinOnceJoined = (): void => {
      const joined = store.get(room);
      if (!joined?.joined || joined.address !== runtime.roomAddress) return;
      lookedAt.current = true;
      unsubscribe();
      const own = takeCallAfterReload(() => window.sessionStorage, roomName, Date.now(), pageNavigation());
      // A call joined in another room meanwhile is the one you chose last: one call at a time.
      const elsewhere = store.get(otherJoinedCallsAtomFamily(roomName)).length > 0;
      if (own && !elsewhere && store.get(callAtomFamily(joined.address))?.joined !== true) void runtime.rejoinAfterReload(own);
    };
    const unsubscribe = store.sub(room, rejoinOnceJoined);
    rejoinOnceJoined();
    return unsubscribe;
  }, [runtime, roomName, store]);
  useEffect(() => {
    if (!runtime) return undefined;
    const keep = (): void => {
      const own = runtime.ownMediaInCall();
      if (own) keepCallForReload(() => window.sessionStorage, roomName, own, Date.now());
    };
    window.addEventListener('pagehide', keep);
    return () => window.removeEventListener('pagehide', keep);
  }, [runtime, roomName]);
}

/** How this page was reached: 'reload', or a closed tab reopened or Back ('back_forward'), a link ('navigate')… */
function pageNavigation(): NavigationTimingType | undefined {
  const [entry] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return entry?.type;
}
