import { useRef, useState } from 'react';
import type { ChatMessage } from '../protocol/entities';

export interface OwnSends {
  /** Every message this panel sent is settled and, if the session took it, among the room's messages. */
  allShown(): boolean;
  /** Follows one send (`sendChat`'s promise, which resolves with the message's id) until it settles. */
  track(sending: Promise<string>): Promise<string>;
}

/**
 * The panel's own sends that the room's messages do not show yet. The session stores a message as
 * it is sent, but the page hears of it a worker round trip and a render later; until then the last
 * message shown as yours is the one before it, which ↑ pressed right after Enter must not correct.
 */
export function useOwnSends(roomAddress: string, messages: readonly ChatMessage[]): OwnSends {
  const unsettled = useRef(0);
  const newest = useRef<{ id: string; roomAddress: string } | undefined>(undefined);
  // A settled send re-renders the panel, so that effects reading `allShown` run again.
  const [, setSettledCount] = useState(0);
  // Read when asked, not as rendered: a handler may run after a send and before the render it causes.
  // A send to another room (the panel followed the person to a new one) is not waited for here.
  const allShown = (): boolean =>
    unsettled.current === 0 &&
    (newest.current === undefined || newest.current.roomAddress !== roomAddress || messages.some((message) => message.id === newest.current?.id));

  function track(sending: Promise<string>): Promise<string> {
    const sentTo = roomAddress;
    unsettled.current += 1;
    return sending
      .then((id) => {
        newest.current = { id, roomAddress: sentTo };
        return id;
      })
      .finally(() => {
        unsettled.current -= 1;
        setSettledCount((count) => count + 1);
      });
  }

  return { allShown, track };
}
