import { describe, expect, it } from 'vitest';
import { SendLossWatch } from '../../src/main-thread/call/SendLossWatch';
import { SEND_LOSS } from '../../src/protocol/clientDefaults';
import { ManualClock } from '../support/ManualClock';

/**
 * A video sender whose statistics the test writes: what it sent and what its receiver reported lost,
 * per RTP stream. A fake: a network that loses a given share of packets cannot be made in Node.
 */
class ReportedSender {
  private readonly streams = new Map<number, { sent: number; lost: number; targetBitrate: number }>();

  /** `packets` more sent on stream `ssrc`, of which the receiver reported `lost` lost, with the congestion control's target then. */
  send(ssrc: number, packets: number, lost: number, targetBitrate = 500_000): void {
    const stream = this.streams.get(ssrc) ?? { sent: 0, lost: 0, targetBitrate };
    this.streams.set(ssrc, { sent: stream.sent + packets, lost: stream.lost + lost, targetBitrate });
  }

  asSender(): RTCRtpSender {
    return {
      getStats: async () => {
        const report = new Map<string, object>();
        for (const [ssrc, { sent, lost, targetBitrate }] of this.streams) {
          report.set(`OT${ssrc}`, { id: `OT${ssrc}`, type: 'outbound-rtp', ssrc, packetsSent: sent, targetBitrate });
          report.set(`RI${ssrc}`, { id: `RI${ssrc}`, type: 'remote-inbound-rtp', ssrc, packetsLost: lost });
        }
        return report as unknown as RTCStatsReport;
      },
    } as unknown as RTCRtpSender;
  }
}

function watched(senders: ReportedSender[]) {
  const clock = new ManualClock();
  const watch = new SendLossWatch(clock, () => senders.map((sender) => sender.asSender()));
  const said: boolean[] = [];
  watch.on('changed', (losing) => said.push(losing));
  /** One read: each sender sends `packets` on every stream, `share` of them reported lost. */
  const read = async (packets: number, share: number, ssrcs = [1]) => {
    for (const sender of senders) for (const ssrc of ssrcs) sender.send(ssrc, packets, Math.round(packets * share));
    await clock.advance(SEND_LOSS.checkIntervalMs);
  };
  return { watch, said, read };
}

describe('Call: the video you send that loses much on its way is said to you, from its receivers’ reports, and taken back once it arrives again (beyond the spec)', () => {
  it(`says so after ${SEND_LOSS.checks} reads in a row at ${SEND_LOSS.noticeAtFraction * 100} % lost or more, not after one`, async () => {
    const { said, read } = watched([new ReportedSender()]);
    await read(100, 0);
    await read(100, 0.5);
    expect(said).toEqual([]);
    await read(100, 0.02);
    await read(100, 0.3);
    expect(said).toEqual([]);
    await read(100, SEND_LOSS.noticeAtFraction);
    expect(said).toEqual([true]);
  });

  it(`takes it back after ${SEND_LOSS.checks} reads in a row below ${SEND_LOSS.clearBelowFraction * 100} %, not while some loss goes on`, async () => {
    const { said, read } = watched([new ReportedSender()]);
    for (let index = 0; index < 3; index += 1) await read(100, 0.4);
    expect(said).toEqual([true]);
    await read(100, 0.05);
    await read(100, 0.05);
    expect(said).toEqual([true]);
    await read(100, 0);
    await read(100, 0);
    expect(said).toEqual([true, false]);
  });

  it('counts every stream of every sender (simulcast layers, mesh sessions), the packets lost of those sent', async () => {
    const healthy = new ReportedSender();
    const lossy = new ReportedSender();
    const { said, read } = watched([healthy, lossy]);
    await read(100, 0, [1, 2]);
    for (let index = 0; index < SEND_LOSS.checks; index += 1) {
      healthy.send(1, 300, 0);
      lossy.send(2, 100, 60);
      await read(0, 0);
    }
    // 60 of 400 lost: 15 %.
    expect(said).toEqual([true]);
  });

  it(`says so when nothing gets through: every stream sent with its target down at ${SEND_LOSS.starvedAtBps / 1000} kbps, though no loss is reported (a receiver that gets none of its packets counts none lost)`, async () => {
    const sender = new ReportedSender();
    const { said, read } = watched([sender]);
    await read(100, 0);
    for (let index = 0; index < SEND_LOSS.checks; index += 1) {
      sender.send(1, 30, 0, 30_000);
      sender.send(2, 30, 0, 40_000);
      await read(0, 0, []);
    }
    expect(said).toEqual([true]);
    // One stream with room above the floor: video gets through.
    for (let index = 0; index < SEND_LOSS.checks; index += 1) {
      sender.send(1, 30, 0, 30_000);
      sender.send(2, 30, 0, 300_000);
      await read(0, 0, []);
    }
    expect(said).toEqual([true, false]);
  });

  it(`says nothing from reads of fewer than ${SEND_LOSS.minPacketsSent} new packets (a paused video, layers not sent)`, async () => {
    const { said, read } = watched([new ReportedSender()]);
    await read(100, 0);
    for (let index = 0; index < 4; index += 1) await read(SEND_LOSS.minPacketsSent - 1, 1);
    expect(said).toEqual([]);
  });

  it('takes it back at once when video no longer goes (the camera turned off): nothing of it is lost', async () => {
    const { said, read } = watched([new ReportedSender()]);
    for (let index = 0; index < 3; index += 1) await read(100, 0.5);
    expect(said).toEqual([true]);
    await read(0, 0);
    expect(said).toEqual([true, false]);
  });

  it('stops reading once stopped', async () => {
    const sender = new ReportedSender();
    const { watch, said, read } = watched([sender]);
    await read(100, 0);
    watch.stop();
    for (let index = 0; index < 3; index += 1) await read(100, 1);
    expect(said).toEqual([]);
  });
});
