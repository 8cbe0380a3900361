/** The call's next step in its stage: the first usable call control in the call, "Join call" in the preview, "Move call here" elsewhere. */
const CALL_CONTROL = '.call-controls button:not(:disabled), .join-call:not(:disabled), .call-elsewhere-actions button';

/** Gives the focus to the call's next step in the stage around `within`, where something the person used has gone with the focus. */
export function focusCallControl(within: Element | null | undefined): void {
  within?.closest('.call-stage')?.querySelector<HTMLElement>(CALL_CONTROL)?.focus({ preventScroll: true });
}
