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

  function closeDialog() {
    setDialogOpen(false);
    setAlternate('');
    setAlternatePassword('');
    setReason('');
    setError(undefined);
  }

  function destroy(event: FormEvent) {
    event.preventDefault();
    const typed = alternate.trim();
    const said = reason.trim();
    let options: { roomAddress?: string; password?: string; reason?: string } | undefined = said ? { reason: said } : undefined;
    if (typed) {
      const alternateRoom = alternateRoomAddress(typed, roomAddress);
      // Said here, the dialog open with what was typed: the session would refuse it after the dialog had gone.
      if ('refusal' in alternateRoom) return setError(alternateRoom.refusal);
      options = { ...options, roomAddress: alternateRoom.address, ...(alternatePassword ? { password: alternatePassword } : {}) };
    }
    void actions.rooms.destroyRoom(roomAddress, options).catch(() => {});
    closeDialog();
  }

  return (
    <>
      <button type="button" className="button danger-outline" onClick={() => setDialogOpen(true)}>
        Destroy room
      </button>
      <Dialog title="Destroy room" open={dialogOpen} onClose={closeDialog}>
        <form method="dialog" onSubmit={destroy} className="dialog-body">
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
            <button type="button" className="button" onClick={closeDialog}>
              Cancel
            </button>
            <button type="submit" className="button danger">
              Destroy
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
