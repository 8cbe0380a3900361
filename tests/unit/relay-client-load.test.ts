// When mediasoup-client loads on the relay path: its module is stood in for, so that its loading can be counted.
import { afterEach, describe, it, vi } from 'vitest';
import { MediaItems } from '../../src/main-thread/media';
import { RelayLink } from '../../src/main-thread/call/relay/RelayLink';
import { RelayRpcClient } from '../../src/main-thread/call/relay/RelayRpcClient';
import { groupIntoStreams, type ShareableMedia } from '../../src/main-thread/call/sessionPlan';
import { ManualClock } from '../support/ManualClock';
import { until } from '../support/until';
import { ROOM } from './callTab-fakes';

/** How many times mediasoup-client's module has been loaded in this file. */
const relayClientLoads = vi.hoisted(() => ({ count: 0 }));

vi.mock('mediasoup-client', () => {
  relayClientLoads.count += 1;
  return {
    Device: class {
      async load(): Promise<void> {}
    },
  };
});

const links: RelayLink[] = [];

afterEach(() => {
  for (const link of links.splice(0)) link.close();
  vi.restoreAllMocks();
});

describe('A newcomer to a call on the relay loads mediasoup-client beside its connection to the relay (issue 14, the join path)', () => {
  it('loads it while the relay has not yet answered the connection, not once its capabilities have come', async () => {
    // The relay does not answer during this test.
    vi.spyOn(RelayRpcClient, 'connect').mockReturnValue(new Promise<RelayRpcClient>(() => {}));
    const clock = new ManualClock();
    const link = new RelayLink({
      roomAddress: ROOM,
      media: new MediaItems({ clock }),
      clock,
      logger: { info: () => {}, error: () => {} },
      iceServers: [],
      sfuServer: () => ({ url: 'wss://relay.test/', password: 'token', minimumPeers: 2 }),
    });
    links.push(link);
    const microphone: ShareableMedia = { id: 'mic', kind: 'audio', streamId: 'stream-1', screenCapture: false };
    link.publish(groupIntoStreams([microphone]), true);
    await until(() => relayClientLoads.count === 1, 'mediasoup-client loading');
  });
});
