import { describe, expect, it } from 'vitest';
import { CALL_SHORTCUTS, isCallShortcut, type ShortcutKeys } from '../../src/ui/call/callShortcuts';

const press = (code: string, held: Partial<Omit<ShortcutKeys, 'code'>> = {}): ShortcutKeys => ({ code, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...held });

describe('Call keyboard shortcuts: Ctrl (⌘ on Apple devices) with D for the microphone and E for the camera, nothing else held (no single character key taken: WCAG 2.1.4)', () => {
  it('Ctrl or ⌘ with the key is the shortcut, by the key’s place, whatever the layout types', () => {
    expect(isCallShortcut(press('KeyD', { ctrlKey: true }), CALL_SHORTCUTS.microphone)).toBe(true);
    expect(isCallShortcut(press('KeyD', { metaKey: true }), CALL_SHORTCUTS.microphone)).toBe(true);
    expect(isCallShortcut(press('KeyE', { ctrlKey: true }), CALL_SHORTCUTS.camera)).toBe(true);
    expect(isCallShortcut(press('KeyE', { ctrlKey: true }), CALL_SHORTCUTS.microphone)).toBe(false);
  });

  it('the key alone, or with Shift or Alt as well, is not: typing and the browser’s own shortcuts keep them', () => {
    expect(isCallShortcut(press('KeyD'), CALL_SHORTCUTS.microphone)).toBe(false);
    expect(isCallShortcut(press('KeyD', { ctrlKey: true, shiftKey: true }), CALL_SHORTCUTS.microphone)).toBe(false);
    expect(isCallShortcut(press('KeyE', { ctrlKey: true, altKey: true }), CALL_SHORTCUTS.camera)).toBe(false);
  });
});
