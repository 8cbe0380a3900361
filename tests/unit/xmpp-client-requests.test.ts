import { describe, expect, it } from 'vitest';
import { createParleyXmppClient } from '../../src/shared-worker/createParleyXmppClient';

// A client that is not connected queues what it sends: nothing answers, as a peer gone without a word.
const PEER = 'room@rooms.example/peer';

describe('Requests the session sends: one never answered stops being listened for when it times out, so that a long session does not keep every unanswered request (StanzaJS keeps them)', () => {
  it('a request that times out rejects with StanzaJS’s timeout and leaves no listener for its answer', async () => {
    const client = createParleyXmppClient({ timeout: 0.05 });
    const request = client.sendIQ({ id: 'never-answered', to: PEER, type: 'set', jingle: { action: 'session-terminate', sid: 's1', reason: { condition: 'success' } } });
    expect(client.listenerCount('iq:id:never-answered')).toBe(1);
    await expect(request).rejects.toMatchObject({ type: 'error', error: { condition: 'timeout' } });
    expect(client.listenerCount('iq:id:never-answered')).toBe(0);
  });

  it('a request without an id of its own is given one, and forgotten as well', async () => {
    const client = createParleyXmppClient({ timeout: 0.05 });
    const listening = () => client.eventNames().filter((name) => String(name).startsWith('iq:id:'));
    const request = client.sendIQ({ to: PEER, type: 'get', disco: { type: 'info' } });
    expect(listening()).toHaveLength(1);
    await expect(request).rejects.toMatchObject({ error: { condition: 'timeout' } });
    expect(listening()).toEqual([]);
  });

  it('an answered request resolves with its answer, as before', async () => {
    const client = createParleyXmppClient({ timeout: 5 });
    const request = client.sendIQ({ id: 'answered', to: PEER, type: 'get', disco: { type: 'info' } });
    // The answer as StanzaJS's client hands it to the request: the event of its id.
    (client as unknown as NodeJS.EventEmitter).emit('iq:id:answered', { id: 'answered', from: PEER, type: 'result', disco: { type: 'info', features: ['urn:xmpp:jingle:1'] } });
    expect(await request).toMatchObject({ type: 'result', disco: { features: ['urn:xmpp:jingle:1'] } });
    expect(client.listenerCount('iq:id:answered')).toBe(0);
  });
});
