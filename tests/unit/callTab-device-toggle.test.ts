import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceToggle, type DeviceToggleProps } from '../../src/ui/call/DeviceToggle';

// The toggle names its shortcut for the platform it runs on.
beforeEach(() => vi.stubGlobal('navigator', { platform: 'Linux x86_64' }));
afterEach(() => vi.unstubAllGlobals());

/** The toggle's button as the page gets it. */
function button(props: Omit<DeviceToggleProps, 'onToggle'>): string {
  const markup = renderToStaticMarkup(createElement(DeviceToggle, { ...props, onToggle: () => undefined }));
  return /<button[^>]*>/.exec(markup)?.[0] ?? '';
}

/** The button's own `disabled` attribute, not `aria-disabled`. */
function disabledAttribute(tag: string): boolean {
  return /\sdisabled(?:=""|(?=[\s>]))/.test(tag);
}

describe('A device toggle pressed to start its device keeps the focus while the device starts: held, not disabled, since the browser drops a disabled button’s focus to the page', () => {
  it('while the camera or the microphone starts, its button says it is unavailable (aria-disabled) yet has no disabled attribute', () => {
    for (const device of ['camera', 'microphone'] as const) {
      const starting = button({ device, on: false, starting: true, disabled: true });
      expect(starting).toContain('aria-disabled="true"');
      expect(disabledAttribute(starting)).toBe(false);
    }
  });

  it('a toggle that cannot act for longer (no such device, push-to-talk holding the microphone) is disabled, and one that can is neither', () => {
    expect(disabledAttribute(button({ device: 'camera', on: false, starting: false, disabled: true }))).toBe(true);
    const usable = button({ device: 'camera', on: false, starting: false, disabled: false });
    expect(disabledAttribute(usable)).toBe(false);
    expect(usable).not.toContain('aria-disabled');
  });
});
