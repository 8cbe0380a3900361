import { describe, expect, it } from 'vitest';
import { providerConfig, useParley } from '../support/parley';
import { rawXmppClientIn } from '../support/rawXmppClient';

/**
 * The gateway's websocket proxy bounds what it holds per connection (issue 12, item 5): a client
 * that stops reading is closed once `gatewayBufferBytes` have piled up for it, instead of the
 * gateway (or the XMPP server) queueing for it without end. A small bound here so the test reaches it.
 */

const BUFFER_BYTES = 64 * 1024;
/** A socket read hands over at most this much at once, so one read can pass the bound by that. */
const SOCKET_READ_BYTES = 64 * 1024;
/** Far more than loopback's kernel buffers take, so the flood must reach the proxy's own buffer. */
const MAX_FLOOD_BYTES = 64 * 1024 * 1024;

const parley = useParley({ gatewayBufferBytes: BUFFER_BYTES, relayWorkers: 0 });

describe('The websocket proxy closes a client that stops reading, holding at most gatewayBufferBytes for it', () => {
  it('closes the stalled reader while a room floods it, having held at most the bound (and one socket read) for it', async () => {
    const roomAddress = `flood-${Date.now()}@${parley().settings.mucDomain}`;
    const stalled = await rawXmppClientIn(await providerConfig(parley()), roomAddress, 'Stalled');
    const sender = await rawXmppClientIn(await providerConfig(parley()), roomAddress, 'Sender');
    stalled.stopReading();

    // A paused socket does not even read the close: the proxy's own count says when it has let go.
    const bothOpen = (): boolean => parley().xmppProxyStats().connections === 2;
    const body = 'x'.repeat(8 * 1024);
    for (let sent = 0; bothOpen() && sent < MAX_FLOOD_BYTES; sent += body.length) await sender.sendGroupchat(roomAddress, body);

    expect(parley().xmppProxyStats().connections).toBe(1);
    expect(parley().xmppProxyStats().peakBufferedBytes).toBeLessThanOrEqual(BUFFER_BYTES + SOCKET_READ_BYTES);
    stalled.close();
    sender.close();
  }, 120_000);
});
