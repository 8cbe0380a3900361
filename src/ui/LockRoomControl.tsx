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
  const [locking, setLocking] = useState(false);
  /**
   * What the room refused last, said where the owner asked for it while the room's lock state is
   * the one it was refused in (the button follows that state).
   */
  const [refused, setRefused] = useState<{ inLocked: boolean; words: string } | undefined>(undefined);
  const refusal = refused?.inLocked === locked ? refused.words : undefined;

  function closeDialog() {
    setDialogOpen(false);
    setPassword('');
    setRefused(undefined);
  }

  async function lock(event: FormEvent) {
    event.preventDefault();
    if (!password || locking) return;
    setLocking(true);
    setRefused(undefined);
    try {
      await actions.rooms.lockRoom(roomAddress, password);
      closeDialog();
    } catch {
      // The dialog stays, with what was typed, so that trying again is one press.
      setRefused({ inLocked: false, words: 'The room did not take the lock: it is still open. Try again.' });
    } finally {
      setLocking(false);
    }
  }

  async function unlock() {
    setRefused(undefined);
    await actions.rooms.unlockRoom(roomAddress).catch(() => setRefused({ inLocked: true, words: 'The room did not take the unlock: it is still locked. Try again.' }));
  }

  if (locked) {
    return (
      <>
        <button type="button" className="button" onClick={() => void unlock()}>
          <LockIcon /> Unlock room
        </button>
        {refusal && (
          <p className="form-error" role="alert">
            {refusal}
          </p>
        )}
      </>
    );
  }
  return (
    <>
      <button type="button" className="button" onClick={() => setDialogOpen(true)}>
        Lock room
      </button>
      <Dialog title="Lock room" open={dialogOpen} onClose={closeDialog}>
        <form method="dialog" onSubmit={(event) => void lock(event)} className="dialog-body">
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
          {refusal && (
            <p className="form-error" role="alert">
              {refusal}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="button" onClick={closeDialog}>
              Cancel
            </button>
            {/* aria-disabled, not disabled, while the room answers: a disabled button would drop the focus out of the dialog. */}
            <button type="submit" className="button primary" disabled={!password} aria-disabled={locking}>
              {locking ? 'Locking…' : 'Lock'}
            </button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
