import { useEffect, useRef, useState } from 'react';
import { roomPath } from './route';

/** How long "Link copied" stays beside the button. */
const COPIED_NOTICE_MS = 4000;

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * How long the notice of `state` stays, when it goes by itself: "Link copied" goes; the address to
 * copy by hand stays until the next press, however long copying takes (WCAG 2.2.1 Timing Adjustable).
 */
export function noticeLastsMs(state: CopyState): number | undefined {
  return state === 'copied' ? COPIED_NOTICE_MS : undefined;
}

/** "Copy link" (and the system's share sheet where the browser has one) for the room's address. */
export function InviteButtons({ roomName }: { roomName: string }) {
  const [copyState, setCopyState] = useState<CopyState>('idle');
  const address = new URL(roomPath(roomName), window.location.origin).href;
  const canShare = typeof navigator.share === 'function';

  useEffect(() => {
    const lasts = noticeLastsMs(copyState);
    if (lasts === undefined) return;
    const timer = window.setTimeout(() => setCopyState('idle'), lasts);
    return () => window.clearTimeout(timer);
  }, [copyState]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      setCopyState('copied');
    } catch {
      // No clipboard (a page on plain http), or the browser refused it.
      setCopyState('failed');
    }
  }

  async function share() {
    try {
      await navigator.share({ title: `${roomName} · Parley`, url: address });
    } catch {
      // Closing the share sheet rejects too; there is nothing to tell.
    }
  }

  return (
    <span className="invite-buttons">
      <button type="button" className="button" onClick={() => void copy()}>
        Copy link
      </button>
      {canShare && (
        <button type="button" className="button" onClick={() => void share()}>
          Share
        </button>
      )}
      <span role="status" className="invite-notice">
        {copyState === 'copied' && 'Link copied'}
        {copyState === 'failed' && 'The link was not copied. Copy this address:'}
      </span>
      {copyState === 'failed' && <AddressToCopy address={address} />}
    </span>
  );
}

/** The room's address, where the browser did not copy it, to copy by hand. */
export function AddressToCopy({ address }: { address: string }) {
  const field = useRef<HTMLInputElement>(null);
  // Focused and selected as it appears, and selected whenever focused: copying is then one shortcut.
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, []);
  return <input ref={field} type="text" readOnly value={address} aria-label="Room address" onFocus={(event) => event.currentTarget.select()} />;
}
