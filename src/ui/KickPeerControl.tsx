import { useRef, useState } from 'react';
import type { Peer } from '../protocol/entities';
import { useActions } from './tabContext';
import { DangerConfirmActions } from './DangerConfirmActions';
import { Dialog } from './Dialog';

interface KickPeerControlProps {
  peer: Peer;
  /** A kick confirmed, with the kick under way: the entry (and this button) is to go, and focus with it to where the person then is. */
  onKicked: (peer: Peer, kicking: Promise<unknown>) => void;
}

/** SPEC §6 kick, for the room's owner: asks first, and says that a kick is a ban until the owner lifts it. */
export function KickPeerControl({ peer, onKicked }: KickPeerControlProps) {
  const actions = useActions();
  const [dialogOpen, setDialogOpen] = useState(false);
  const confirmed = useRef(false);
  const button = useRef<HTMLButtonElement>(null);

  // The dialog's close event comes after the browser has put focus back on the Kick button.
  function dialogClosed() {
    setDialogOpen(false);
    if (!confirmed.current) button.current?.focus();
    confirmed.current = false;
  }

  function kick() {
    confirmed.current = true;
    // The entry follows the room; a kick the room refuses rejects, and the list says so.
    const kicking = actions.rooms.kickPeer(peer.address);
    // Told now, not on the dialog's close event: the room may remove the entry, the dialog with it, first.
    onKicked(peer, kicking);
    setDialogOpen(false);
  }

  return (
    <>
      <button ref={button} type="button" className="button small danger" aria-label={`Kick ${peer.displayName}`} onClick={() => setDialogOpen(true)}>
        Kick
      </button>
      <Dialog title={`Kick ${peer.displayName}?`} open={dialogOpen} onClose={dialogClosed}>
        <div className="dialog-body">
          <p>
            {peer.displayName} will be removed from the room and banned from it: they cannot come back until you lift the ban (under
            “Banned” in the list of people).
          </p>
          <DangerConfirmActions action="Kick and ban" onCancel={() => setDialogOpen(false)} onConfirm={kick} />
        </div>
      </Dialog>
    </>
  );
}
