// A room's answer to the owner's outcast list request (muc#admin), as StanzaJS parses it: what the
// ban list keeps of it (SPEC §6; LIMITS.banListEntries).
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../src/protocol/constants';
import { banListOf, KnownNames, refusalCondition } from '../../src/shared-worker/rooms/banList';

function answer(users: unknown[]): unknown {
  return { type: 'result', muc: { type: 'user-list', users } };
}

describe('Ban list: outcasts with a valid address, named as this session saw them, else by their localpart', () => {
  it('names people this session kicked by their display name, and others by their address localpart', () => {
    const names = new KnownNames();
    names.remember('bob@parley.localhost', 'Bob');
    const bans = banListOf(
      answer([
        { affiliation: 'outcast', jid: 'bob@parley.localhost' },
        { affiliation: 'outcast', jid: 'carol\\20smith@parley.localhost', reason: 'spam' },
      ]),
      names,
    );
    expect(bans).toEqual([
      { userAddress: 'bob@parley.localhost', displayName: 'Bob', reason: undefined },
      { userAddress: 'carol\\20smith@parley.localhost', displayName: 'carol smith', reason: 'spam' },
    ]);
  });

  it('skips entries that are not outcasts or have no valid address, keeps each person once, and bare', () => {
    const bans = banListOf(
      answer([
        { affiliation: 'member', jid: 'dave@parley.localhost' },
        { affiliation: 'outcast' },
        { affiliation: 'outcast', jid: 'parley.localhost' },
        { affiliation: 'outcast', jid: 'a b@parley.localhost' },
        'not an item',
        { affiliation: 'outcast', jid: 'erin@parley.localhost/phone' },
        { affiliation: 'outcast', jid: 'erin@parley.localhost' },
      ]),
      new KnownNames(),
    );
    expect(bans.map((ban) => ban.userAddress)).toEqual(['erin@parley.localhost']);
  });

  it('reads nothing from an answer of the wrong shape', () => {
    for (const shape of [undefined, null, 'x', {}, { muc: {} }, { muc: { users: 'x' } }]) expect(banListOf(shape, new KnownNames())).toEqual([]);
  });

  it('keeps at most LIMITS.banListEntries people and bounds reasons', () => {
    const users = Array.from({ length: LIMITS.banListEntries + 5 }, (_, index) => ({ affiliation: 'outcast', jid: `p${index}@parley.localhost`, reason: 'r'.repeat(5000) }));
    const bans = banListOf(answer(users), new KnownNames());
    expect(bans).toHaveLength(LIMITS.banListEntries);
    expect(bans[0]?.reason).toHaveLength(LIMITS.reasonLength);
  });

  it('remembers at most LIMITS.banListEntries names, forgetting the oldest first', () => {
    const names = new KnownNames();
    for (let index = 0; index <= LIMITS.banListEntries; index += 1) names.remember(`p${index}@parley.localhost`, `Person ${index}`);
    expect(names.nameOf('p0@parley.localhost')).toBe('p0');
    expect(names.nameOf(`p${LIMITS.banListEntries}@parley.localhost`)).toBe(`Person ${LIMITS.banListEntries}`);
  });
});

describe('Ban list refusals: the condition of the room’s error', () => {
  it('reads the error condition, or says there was no answer', () => {
    expect(refusalCondition({ type: 'error', error: { condition: 'forbidden' } })).toBe('forbidden');
    expect(refusalCondition(new Error('timeout'))).toBe('no answer');
  });
});
