import { describe, expect, it } from 'vitest';
import { keepCallForReload, takeCallAfterReload } from '../../src/main-thread/callTab/callAfterReload';
import { CALL_AFTER_RELOAD_WITHIN_MS } from '../../src/protocol/clientDefaults';

/** sessionStorage as a page has it (Node has none): one tab's, kept through its reload. */
class TabStorage implements Storage {
  private readonly items = new Map<string, string>();
  refused = false;
  get length(): number {
    return this.items.size;
  }
  clear(): void {
    this.items.clear();
  }
  getItem(key: string): string | null {
    if (this.refused) throw new DOMException('The operation is insecure.', 'SecurityError');
    return this.items.get(key) ?? null;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    if (this.refused) throw new DOMException('The operation is insecure.', 'SecurityError');
    this.items.set(key, value);
  }
}

const MUTED = { microphoneMuted: true, cameraOff: false, sharingScreen: true };

describe('A call tab reloaded in the call comes back into it as you left it, within CALL_AFTER_RELOAD_WITHIN_MS (beyond the spec)', () => {
  it('what the page kept as it went is taken once, by the same room’s page, back soon enough', () => {
    const storage = new TabStorage();
    keepCallForReload(() => storage, 'standup', MUTED, 1_000);
    expect(takeCallAfterReload(() => storage, 'standup', 1_000 + CALL_AFTER_RELOAD_WITHIN_MS, 'reload')).toEqual(MUTED);
    expect(takeCallAfterReload(() => storage, 'standup', 1_000 + CALL_AFTER_RELOAD_WITHIN_MS, 'reload')).toBeUndefined();
  });

  it('only a reload takes it: a closed tab reopened or Back to the page (back_forward), or the page opened anew (navigate), takes nothing and drops what was kept', () => {
    const storage = new TabStorage();
    for (const navigation of ['back_forward', 'navigate'] as const) {
      keepCallForReload(() => storage, 'standup', MUTED, 1_000);
      expect(takeCallAfterReload(() => storage, 'standup', 1_500, navigation), navigation).toBeUndefined();
      expect(storage.length, navigation).toBe(0);
    }
    keepCallForReload(() => storage, 'standup', MUTED, 1_000);
    expect(takeCallAfterReload(() => storage, 'standup', 1_500, 'reload')).toEqual(MUTED);
  });

  it('another room’s page, a page back too late, or a clock gone backwards takes nothing, and drops what was kept', () => {
    const storage = new TabStorage();
    keepCallForReload(() => storage, 'standup', MUTED, 1_000);
    expect(takeCallAfterReload(() => storage, 'retro', 1_500, 'reload')).toBeUndefined();
    expect(takeCallAfterReload(() => storage, 'standup', 1_500, 'reload')).toBeUndefined();
    keepCallForReload(() => storage, 'standup', MUTED, 1_000);
    expect(takeCallAfterReload(() => storage, 'standup', 1_001 + CALL_AFTER_RELOAD_WITHIN_MS, 'reload')).toBeUndefined();
    keepCallForReload(() => storage, 'standup', MUTED, 1_000);
    expect(takeCallAfterReload(() => storage, 'standup', 999, 'reload')).toBeUndefined();
  });

  it('what is stored there but is not what a page keeps is ignored: not JSON, wrong fields, a name too long', () => {
    const storage = new TabStorage();
    for (const stored of ['{', 'null', '"standup"', JSON.stringify({ roomName: 'standup', at: 1_000, microphoneMuted: 'yes', cameraOff: false, sharingScreen: false }), JSON.stringify({ ...MUTED, roomName: 'x'.repeat(300), at: 1_000 })]) {
      storage.setItem('parley:call-at-reload', stored);
      expect(takeCallAfterReload(() => storage, 'standup', 1_000, 'reload'), stored).toBeUndefined();
    }
  });

  it('storage refused (privacy settings): nothing is kept, nothing taken, nothing thrown — whether using it throws or reaching it does', () => {
    const storage = new TabStorage();
    storage.refused = true;
    expect(() => keepCallForReload(() => storage, 'standup', MUTED, 1_000)).not.toThrow();
    expect(takeCallAfterReload(() => storage, 'standup', 1_000, 'reload')).toBeUndefined();
    const unreachable = (): Storage => {
      throw new DOMException("Failed to read the 'sessionStorage' property from 'Window': Access is denied for this document.", 'SecurityError');
    };
    expect(() => keepCallForReload(unreachable, 'standup', MUTED, 1_000)).not.toThrow();
    expect(takeCallAfterReload(unreachable, 'standup', 1_000, 'reload')).toBeUndefined();
  });
});
