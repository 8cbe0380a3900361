import { useState, type FormEvent } from 'react';
import { LIMITS } from '../protocol/constants';
import { useActions } from './tabContext';
import { Dialog } from './Dialog';
import { LockIcon } from './Icon';

/** SPEC §4 lock state, for the room's owner: "Lock room" asks for a password; "Unlock room" clears it. */
export function LockRoomControl({ locked, roomAddress }: { locked: boolean; roomAddress: string }) {
  const actions = useActions();
  const [dialogOpen, setDialogOpen] = useState(false);
  const [password, setPassword] = useState('');

  function closeDialog() {
    setDialogOpen(false);
    setPassword('');
  }

  function lock(event: FormEvent) {
    event.preventDefault();
    if (!password) return;
    // Failures are logged by the session only (SPEC §8); the button follows the room's lock state.
    void actions.rooms.lockRoom(roomAddress, password).catch(() => {});
    closeDialog();
  }

  if (locked) {
    return (
      <button type="button" className="button" onClick={() => void actions.rooms.unlockRoom(roomAddress).catch(() => {})}>
        <LockIcon /> Unlock room
      </button>
    );
  }
  return (
    <>
      <button type="button" className="button" onClick={() => setDialogOpen(true)}>
        Lock room
      </button>
      <Dialog title="Lock room" open={dialogOpen} onClose={closeDialog}>
        <form method="dialog" onSubmit={lock} className="dialog-body">
          <p className="muted">People who join from now on must enter this password. Those already here stay.</p>
          <label className="field">
            <span>Room password</span>
            <input
              type="password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
              autoComplete="new-password"
              autoFocus
              required
              maxLength={LIMITS.roomPasswordLength}
            />
          </label>
          <div className="dialog-actions">
            <button type="button" className="button" onClick={closeDialog}>
              Cancel
            </button>
            <button type="submit" className="button primary" disabled={!password}>
              Lock
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
