import { describe, expect, it } from 'vitest';
import { IDENTITY_READ_WITHIN_MS, LIVENESS, RECONNECT_POLICY } from '../../src/protocol/clientDefaults';
import type { IdentityStorage } from '../../src/shared-worker/identity/IdentityStorage';
import { sessionOnFakeTime, type FakeTimeSession } from './signaling-session-fakes';

/** Lets the config request's answer be read (a Response's body is read over event-loop turns). */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

async function connectedSession(): Promise<FakeTimeSession> {
  const fake = sessionOnFakeTime();
  void fake.session.connect();
  await settle();
  fake.client.startSession();
  expect(fake.session.connection.state).toBe('connected');
  return fake;
}

describe(`A stored-identity read that never answers (a hung IndexedDB) holds no connect: after IDENTITY_READ_WITHIN_MS (${IDENTITY_READ_WITHIN_MS} ms) the config request goes without it`, () => {
  it('asks for its config once the read has gone unanswered that long, as a new visitor', async () => {
    const hung: IdentityStorage = { load: () => new Promise(() => undefined), save: () => Promise.resolve() };
    const { session, clock, configRequests } = sessionOnFakeTime({ identityStorage: hung });
    void session.connect();
    await clock.advance(IDENTITY_READ_WITHIN_MS - 1);
    await settle();
    expect(configRequests).toHaveLength(0);
    await clock.advance(1);
    await settle();
    expect(configRequests).toHaveLength(1);
    expect(JSON.parse(configRequests[0]!)).not.toHaveProperty('identity');
  });
});

describe('Back online while connected, the connection is checked at once: a network that changed under it leaves a dead socket, given up within LIVENESS.answerWithinMs rather than after the quiet time (SPEC §7 online, issue 13)', () => {
  it('offline, then online within the offline delay: a ping goes at once, and no answer in time gives the connection up and reconnects', async () => {
    const { session, clock, client } = await connectedSession();
    session.offline();
    await clock.advance(1_000);
    session.online();
    expect(client.pings).toBe(1);
    await clock.advance(LIVENESS.answerWithinMs);
    expect(session.connection).toMatchObject({ state: 'disconnected', stoppedAnswering: true });
  });

  it('an online with no offline before it (a new route) checks the same way, and an answer keeps the connection', async () => {
    const { session, clock, client } = await connectedSession();
    session.online();
    expect(client.pings).toBe(1);
    client.hear();
    await clock.advance(LIVENESS.answerWithinMs);
    expect(session.connection.state).toBe('connected');
  });
});

describe(`A sign-in the chat server keeps refusing is no lost connection retried every few seconds: after RECONNECT_POLICY.refusedLoginsBeforeBackoff (${RECONNECT_POLICY.refusedLoginsBeforeBackoff}) refusals in a row the next attempt waits afterRefusedLoginsMs, and the record says the server refuses it (issue 13)`, () => {
  /** Runs the session for `ms` of fake time, its chat server refusing every sign-in. */
  async function refusingFor(fake: FakeTimeSession, ms: number): Promise<void> {
    const refused = new Set<unknown>();
    for (let elapsed = 0; elapsed < ms; elapsed += 250) {
      await settle();
      for (const client of fake.clients.filter((each) => each.connects > 0 && !refused.has(each))) {
        refused.add(client);
        client.refuseSignIn();
      }
      await fake.clock.advance(250);
    }
  }

  it('a minute and a half of refusals costs the server a handful of config requests and logins, not dozens, and says why', async () => {
    const fake = sessionOnFakeTime();
    fake.clock.randomValue = 0;
    void fake.session.connect();
    await refusingFor(fake, 90_000);
    // The run's quick attempts, then one after afterRefusedLoginsMs; the next waits as long.
    expect(fake.configRequests).toHaveLength(RECONNECT_POLICY.refusedLoginsBeforeBackoff + 1);
    expect(fake.session.connection).toMatchObject({ state: 'disconnected', loginRefused: true, wasConnected: false });
    expect(fake.session.connection.nextAttemptAt! - fake.clock.now()).toBeGreaterThan(RECONNECT_POLICY.afterRefusedLoginsMs / 2);
  });

  it('"Retry now" tries at once, and a sign-in accepted then ends the run: the session is connected and the refusal forgotten', async () => {
    const fake = sessionOnFakeTime();
    void fake.session.connect();
    await refusingFor(fake, 30_000);
    const clientsBefore = fake.clients.length;
    void fake.session.connect();
    await settle();
    expect(fake.clients).toHaveLength(clientsBefore + 1);
    fake.client.startSession();
    expect(fake.session.connection).toMatchObject({ state: 'connected', loginRefused: false, wasConnected: true, reconnectAttempts: 0 });
  });
});
