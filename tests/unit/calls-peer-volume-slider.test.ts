import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { CallRuntime } from '../../src/main-thread/callTab/CallRuntime';
import { CallRuntimeContext } from '../../src/ui/call/callRuntimeContext';
import { PeerVolumeSlider } from '../../src/ui/call/PeerVolumeSlider';

/** The slider as a tile shows it; rendering to markup calls nothing of the runtime. */
function sliderAt(volumeLimit: number): string {
  return renderToStaticMarkup(createElement(CallRuntimeContext, { value: {} as CallRuntime }, createElement(PeerVolumeSlider, { peerAddress: 'room@rooms.example/bob', displayName: 'Bob', volumeLimit })));
}

describe('A person’s volume slider is read out as a percentage, as its title shows it (SPEC §3 Peer volumeLimit)', () => {
  it('at 0.8 a screen reader hears 80%, not 0.8; at 0.35, 35%', () => {
    expect(sliderAt(0.8)).toContain('aria-valuetext="80%"');
    expect(sliderAt(0.8)).toContain('title="Volume of Bob: 80%"');
    expect(sliderAt(0.35)).toContain('aria-valuetext="35%"');
  });
});
