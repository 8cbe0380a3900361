import { describe, expect, it } from 'vitest';
import { CALL_SHORTCUTS, isCallShortcut, type ShortcutKeys } from '../../src/ui/call/callShortcuts';

const press = (code: string, held: Partial<Omit<ShortcutKeys, 'code'>> = {}): ShortcutKeys => ({ code, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...held });

describe('Call keyboard shortcuts: Ctrl (⌘ on Apple devices, and there only ⌘) with D for the microphone and E for the camera, nothing else held (no single character key taken: WCAG 2.1.4)', () => {
  it('Ctrl with the key is the shortcut, ⌘ on Apple devices, by the key’s place, whatever the layout types', () => {
    expect(isCallShortcut(press('KeyD', { ctrlKey: true }), CALL_SHORTCUTS.microphone, false)).toBe(true);
    expect(isCallShortcut(press('KeyE', { ctrlKey: true }), CALL_SHORTCUTS.camera, false)).toBe(true);
    expect(isCallShortcut(press('KeyD', { metaKey: true }), CALL_SHORTCUTS.microphone, true)).toBe(true);
    expect(isCallShortcut(press('KeyE', { metaKey: true }), CALL_SHORTCUTS.camera, true)).toBe(true);
    expect(isCallShortcut(press('KeyE', { ctrlKey: true }), CALL_SHORTCUTS.microphone, false)).toBe(false);
  });

  it('on an Apple device Ctrl is not: Ctrl+E and Ctrl+D move the caret and delete in text fields; elsewhere the system key is not', () => {
    expect(isCallShortcut(press('KeyE', { ctrlKey: true }), CALL_SHORTCUTS.camera, true)).toBe(false);
    expect(isCallShortcut(press('KeyD', { ctrlKey: true }), CALL_SHORTCUTS.microphone, true)).toBe(false);
    expect(isCallShortcut(press('KeyE', { metaKey: true }), CALL_SHORTCUTS.camera, false)).toBe(false);
    expect(isCallShortcut(press('KeyD', { ctrlKey: true, metaKey: true }), CALL_SHORTCUTS.microphone, true)).toBe(false);
  });

  it('the key alone, or with Shift or Alt as well, is not: typing and the browser’s own shortcuts keep them', () => {
    for (const apple of [false, true]) {
      const command = apple ? { metaKey: true } : { ctrlKey: true };
      expect(isCallShortcut(press('KeyD'), CALL_SHORTCUTS.microphone, apple)).toBe(false);
      expect(isCallShortcut(press('KeyD', { ...command, shiftKey: true }), CALL_SHORTCUTS.microphone, apple)).toBe(false);
      expect(isCallShortcut(press('KeyE', { ...command, altKey: true }), CALL_SHORTCUTS.camera, apple)).toBe(false);
    }
  });
});
