import { describe, expect, it } from 'vitest';
import { SessionRequests } from '../../server/relay/SessionRequests';
import type { RelayResponse } from '../../src/protocol/relay';

const answer = (id: string): RelayResponse => ({ jsonrpc: '2.0', id, result: { for: id } });

describe('A resumable session answers each request id once (SessionRequests; src/protocol/relay.ts)', () => {
  it('a new id runs; asked again while it runs, it waits for the answer to come; asked again once answered, it gets the answer kept', () => {
    const requests = new SessionRequests(4);
    expect(requests.admit('a')).toEqual({ run: true });
    expect(requests.admit('a')).toEqual({ run: false });
    requests.settle('a', answer('a'));
    expect(requests.admit('a')).toEqual({ run: false, answer: answer('a') });
  });

  it('keeps the latest answers only: an id answered before those runs again', () => {
    const requests = new SessionRequests(2);
    for (const id of ['a', 'b', 'c']) {
      requests.admit(id);
      requests.settle(id, answer(id));
    }
    expect(requests.admit('b')).toEqual({ run: false, answer: answer('b') });
    expect(requests.admit('c')).toEqual({ run: false, answer: answer('c') });
    expect(requests.admit('a')).toEqual({ run: true });
  });
});
