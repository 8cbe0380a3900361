interface DangerConfirmActionsProps {
  /** The action's words, on its red button ("Delete", "Kick and ban"). */
  action: string;
  onCancel: () => void;
  onConfirm: () => void;
}

/** A dialog's Cancel and its action that cannot be undone; Cancel takes the focus, so a stray Enter does nothing. */
export function DangerConfirmActions({ action, onCancel, onConfirm }: DangerConfirmActionsProps) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={onCancel} autoFocus>
        Cancel
      </button>
      <button type="button" className="button danger" onClick={onConfirm}>
        {action}
      </button>
    </div>
  );
}
