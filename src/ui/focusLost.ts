/**
 * Nothing on the page has focus: it fell to the body, or its element was just removed (browsers fix
 * focus up only at their next rendering, so a removed element may still be the active one).
 */
export function focusLost(): boolean {
  const active = document.activeElement;
  return active === null || active === document.body || !active.isConnected;
}
