import { describe, expect, it } from 'vitest';
import type { CallPeer } from '../../src/main-thread/call/sessionPlan';
import { RelayDecision, relayPeerCount } from '../../src/main-thread/call/RelayDecision';
import { MEDIA_RELAY } from '../../src/protocol/constants';
import { ManualClock } from '../support/ManualClock';

const SFU = { minimumPeers: MEDIA_RELAY.defaultMinimumPeers };

function peers(...media: Array<CallPeer['requestingMedia'] | 'out'>): CallPeer[] {
  return media.map((requesting, index) => ({
    address: `room@muc/p${index}`,
    joinedCall: requesting !== 'out',
    requestingMedia: requesting === 'out' ? 'none' : requesting,
  }));
}

function decisionWithLog(clock: ManualClock): { decision: RelayDecision; changes: boolean[] } {
  const decision = new RelayDecision(clock);
  const changes: boolean[] = [];
  decision.on('change', (wanted) => changes.push(wanted));
  return { decision, changes };
}

describe('relayPeerCount (SPEC §4: max of peers requesting audio and peers requesting video)', () => {
  it('counts peers in the call; a video request takes audio too', () => {
    expect(relayPeerCount(peers('video', 'video'))).toBe(2);
    expect(relayPeerCount(peers('audio', 'audio', 'video'))).toBe(3);
    expect(relayPeerCount(peers('none', 'video'))).toBe(1);
    expect(relayPeerCount(peers('out', 'out', 'video'))).toBe(1);
    expect(relayPeerCount([])).toBe(0);
  });
});

describe('RelayDecision (SPEC §4 relay switch, fake time)', () => {
  it('turns on as soon as the count reaches minimumPeers (default 2)', () => {
    const clock = new ManualClock();
    const { decision, changes } = decisionWithLog(clock);
    expect(decision.update(peers('video'), SFU)).toBe(false);
    expect(decision.update(peers('video', 'audio'), SFU)).toBe(true);
    expect(changes).toEqual([true]);
    expect(clock.pendingDelays()).toEqual([]);
  });

  it('follows the configured minimum', () => {
    const clock = new ManualClock();
    const { decision } = decisionWithLog(clock);
    expect(decision.update(peers('video', 'video'), { minimumPeers: 3 })).toBe(false);
    expect(decision.update(peers('video', 'video', 'video'), { minimumPeers: 3 })).toBe(true);
  });

  it(`turns off ${MEDIA_RELAY.shutdownDelayMs} ms after the count drops below the minimum, not before`, async () => {
    const clock = new ManualClock();
    const { decision, changes } = decisionWithLog(clock);
    decision.update(peers('video', 'video'), SFU);
    expect(decision.update(peers('video'), SFU)).toBe(true);
    expect(clock.pendingDelays()).toEqual([MEDIA_RELAY.shutdownDelayMs]);
    // Further recomputes while below do not restart the delay.
    await clock.advance(3_000);
    expect(decision.update(peers('video'), SFU)).toBe(true);
    await clock.advance(MEDIA_RELAY.shutdownDelayMs - 3_000 - 1);
    expect(decision.wanted).toBe(true);
    expect(changes).toEqual([true]);
    await clock.advance(1);
    expect(decision.wanted).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('cancels the shutdown when the count climbs back in time', async () => {
    const clock = new ManualClock();
    const { decision, changes } = decisionWithLog(clock);
    decision.update(peers('video', 'video'), SFU);
    decision.update(peers('video'), SFU);
    await clock.advance(MEDIA_RELAY.shutdownDelayMs - 1);
    expect(decision.update(peers('video', 'video'), SFU)).toBe(true);
    expect(clock.pendingDelays()).toEqual([]);
    await clock.advance(10 * MEDIA_RELAY.shutdownDelayMs);
    expect(decision.wanted).toBe(true);
    expect(changes).toEqual([true]);
    // A later drop starts a full delay again.
    decision.update(peers(), SFU);
    expect(clock.pendingDelays()).toEqual([MEDIA_RELAY.shutdownDelayMs]);
  });

  it('without an sfuServer in the config there is no relay, at once', async () => {
    const clock = new ManualClock();
    const { decision, changes } = decisionWithLog(clock);
    expect(decision.update(peers('video', 'video', 'video'), undefined)).toBe(false);
    decision.update(peers('video', 'video'), SFU);
    expect(decision.update(peers('video', 'video'), undefined)).toBe(false);
    expect(changes).toEqual([true, false]);
    expect(clock.pendingDelays()).toEqual([]);
  });

  it('dispose stops a pending shutdown', async () => {
    const clock = new ManualClock();
    const { decision, changes } = decisionWithLog(clock);
    decision.update(peers('video', 'video'), SFU);
    decision.update(peers(), SFU);
    decision.dispose();
    expect(clock.pendingDelays()).toEqual([]);
    await clock.advance(MEDIA_RELAY.shutdownDelayMs);
    expect(changes).toEqual([true]);
  });
});
