import { useState, type FormEvent } from 'react';
import { roomNameToLocalpart } from '../protocol/rooms';
import { useActions } from './tabContext';
import { Dialog } from './Dialog';

/**
 * The room address for what a person typed as the alternate room: a full address as it is, a room
 * name on the same MUC service as this room (the room config service names rooms that way).
 */
function alternateAddress(typed: string, roomAddress: string): string {
  if (typed.includes('@')) return typed;
  const service = roomAddress.slice(roomAddress.indexOf('@') + 1);
  return `${roomNameToLocalpart(typed)}@${service}`;
}

/** SPEC §4 destroyed room, for the owner: ends the room for everyone, optionally sending them elsewhere. */
export function DestroyRoomControl({ roomAddress }: { roomAddress: string }) {
  const actions = useActions();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [alternate, setAlternate] = useState('');
  const [alternatePassword, setAlternatePassword] = useState('');
  const [error, setError] = useState<string | undefined>(undefined);

  function closeDialog() {
    setDialogOpen(false);
    setAlternate('');
    setAlternatePassword('');
    setError(undefined);
  }

  function destroy(event: FormEvent) {
    event.preventDefault();
    const typed = alternate.trim();
    let options: { roomAddress?: string; password?: string } | undefined;
    if (typed) {
      try {
        options = { roomAddress: alternateAddress(typed, roomAddress), ...(alternatePassword ? { password: alternatePassword } : {}) };
      } catch {
        setError('That alternate room name has no letters or digits that can name a room.');
        return;
      }
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
              disabled={!alternate.trim()}
            />
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
