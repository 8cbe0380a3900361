import { useState, type FormEvent } from 'react';
import { LIMITS } from '../protocol/constants';
import { alternateRoomAddress } from './alternateRoom';
import { useActions } from './tabContext';
import { Dialog } from './Dialog';

/** SPEC §4 destroyed room, for the owner: ends the room for everyone, optionally sending them elsewhere. */
export function DestroyRoomControl({ roomAddress }: { roomAddress: string }) {
  const actions = useActions();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [alternate, setAlternate] = useState('');
  const [alternatePassword, setAlternatePassword] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);
  const [destroying, setDestroying] = useState(false);

  // Emptied as it opens, not as it closes: a destroy refused after the dialog was closed opens it
  // again with what was typed.
  function openDialog() {
    setAlternate('');
    setAlternatePassword('');
    setReason('');
    setError(undefined);
    setDialogOpen(true);
  }

  async function destroy(event: FormEvent) {
    event.preventDefault();
    if (destroying) return;
    const typed = alternate.trim();
    const said = reason.trim();
    let options: { roomAddress?: string; password?: string; reason?: string } | undefined = said ? { reason: said } : undefined;
    if (typed) {
      const alternateRoom = alternateRoomAddress(typed, roomAddress);
      // Said here, the dialog open with what was typed: the session would refuse it after the dialog had gone.
      if ('refusal' in alternateRoom) return setError(alternateRoom.refusal);
      options = { ...options, roomAddress: alternateRoom.address, ...(alternatePassword ? { password: alternatePassword } : {}) };
    }
    setError(undefined);
    setDestroying(true);
    try {
      await actions.rooms.destroyRoom(roomAddress, options);
      setDialogOpen(false);
    } catch {
      // The room stands: said in the dialog, with what was typed, so that trying again is one press.
      setError('The room was not destroyed. Try again.');
      setDialogOpen(true);
    } finally {
      setDestroying(false);
    }
  }

  return (
    <>
      <button type="button" className="button danger-outline" onClick={openDialog}>
        Destroy room
      </button>
      <Dialog title="Destroy room" open={dialogOpen} onClose={() => setDialogOpen(false)}>
        <form method="dialog" onSubmit={(event) => void destroy(event)} className="dialog-body">
          <p className="muted">Everyone leaves the room and it is gone. You can send them to another room instead.</p>
          <label className="field">
            <span>Alternate room (optional)</span>
            <input type="text" value={alternate} onChange={(event) => setAlternate(event.target.value)} autoComplete="off" autoFocus />
          </label>
          <label className="field">
            <span>Alternate room password (optional)</span>
            <input
              type="password"
              value={alternatePassword}
              onChange={(event) => setAlternatePassword(event.target.value)}
              autoComplete="off"
              maxLength={LIMITS.roomPasswordLength}
              disabled={!alternate.trim()}
            />
          </label>
          <label className="field">
            <span>Reason (optional)</span>
            <input type="text" value={reason} onChange={(event) => setReason(event.target.value)} autoComplete="off" maxLength={LIMITS.reasonLength} />
          </label>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={() => setDialogOpen(false)}>
              Cancel
            </button>
            {/* aria-disabled, not disabled, while the room answers: a disabled button would drop the focus out of the dialog. */}
            <button type="submit" className="button danger" aria-disabled={destroying}>
              {destroying ? 'Destroying…' : 'Destroy'}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
