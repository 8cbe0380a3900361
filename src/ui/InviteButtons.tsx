import { useEffect, useState } from 'react';
import { roomPath } from './route';

/** How long "Link copied" stays beside the button. */
const COPIED_NOTICE_MS = 4000;

type CopyState = 'idle' | 'copied' | 'failed';

/** "Copy link" (and the system's share sheet where the browser has one) for the room's address. */
export function InviteButtons({ roomName }: { roomName: string }) {
  const [copyState, setCopyState] = useState<CopyState>('idle');
  const address = new URL(roomPath(roomName), window.location.origin).href;
  const canShare = typeof navigator.share === 'function';

  useEffect(() => {
    if (copyState === 'idle') return;
    const timer = window.setTimeout(() => setCopyState('idle'), COPIED_NOTICE_MS);
    return () => window.clearTimeout(timer);
  }, [copyState]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(address);
      setCopyState('copied');
    } catch {
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
        {copyState === 'failed' && `Copy this address: ${address}`}
      </span>
    </span>
  );
}
