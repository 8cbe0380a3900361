import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/protocol/config';
import { DEFAULT_PREFERENCES, LIMITS } from '../../src/protocol/constants';
import { ValidationError } from '../../src/protocol/errors';
import type { SessionContext } from '../../src/shared-worker/SessionContext';
import { PreferencesDomain } from '../../src/shared-worker/preferences/PreferencesDomain';
import { MemoryPreferencesStorage, type PreferencesStorage } from '../../src/shared-worker/preferences/PreferencesStorage';
import { StateStore } from '../../src/shared-worker/StateStore';
import { systemClock, type Clock } from '../../src/common/clock';
import { PREFERENCES_READ_WITHIN_MS, STORED_PREFERENCES_OTHER_FIELDS_MAX_CHARS } from '../../src/protocol/clientDefaults';
import { ManualClock } from '../support/ManualClock';

function contextWith(config?: Partial<ProviderConfig>, clock: Clock = systemClock, logged: string[] = []): SessionContext & { store: StateStore } {
  return {
    clock,
    log: { info: (message) => logged.push(message), error: (message) => logged.push(`error: ${message}`) },
    fetch,
    store: new StateStore(),
    client: undefined,
    config: config as ProviderConfig | undefined,
    wantsConnection: false,
  };
}

describe('User preferences (SPEC §3): defaults, validation, persistence shared by every tab', () => {
  it('starts from the spec defaults, with displayName Anonymous', async () => {
    const context = contextWith();
    await new PreferencesDomain(context, new MemoryPreferencesStorage()).ready();
    expect(context.store.state.preferences).toEqual(DEFAULT_PREFERENCES);
    expect(DEFAULT_PREFERENCES).toMatchObject({ displayName: 'Anonymous', globalVolumeLimit: 1, mediaEnabled: true, pushToTalk: false, requestingMedia: 'video', voiceActivityThreshold: -65 });
  });

  it('shows your typing live (real-time text, the spec\'s behaviour) and plays no sounds until you choose otherwise (issue 15)', async () => {
    const context = contextWith();
    const preferences = new PreferencesDomain(context, new MemoryPreferencesStorage());
    await preferences.ready();
    expect(context.store.state.preferences).toMatchObject({ realTimeText: true, sounds: false });
    await preferences.setPreferences({ realTimeText: false, sounds: true });
    expect(context.store.state.preferences).toMatchObject({ realTimeText: false, sounds: true });
    await expect(preferences.setPreferences({ realTimeText: 'no' as never })).rejects.toThrow('realTimeText must be true or false');
  });

  it('persists what the person chose, so a new session (another tab, a reload) starts with it', async () => {
    const storage = new MemoryPreferencesStorage();
    await new PreferencesDomain(contextWith(), storage).setPreferences({ displayName: '  Ada  ', pushToTalk: true });
    const later = contextWith();
    await new PreferencesDomain(later, storage).ready();
    expect(later.store.state.preferences).toMatchObject({ displayName: 'Ada', pushToTalk: true, requestingMedia: 'video' });
  });

  it('takes the provider\'s configured display name until the person sets their own', async () => {
    const context = contextWith({ displayName: 'From Provider' });
    const preferences = new PreferencesDomain(context, new MemoryPreferencesStorage());
    await preferences.ready();
    preferences.connected();
    expect(context.store.state.preferences.displayName).toBe('From Provider');
    await preferences.setPreferences({ displayName: 'Mine' });
    preferences.connected();
    expect(context.store.state.preferences.displayName).toBe('Mine');
  });

  it('refuses bad values and unknown fields with a clear error and changes nothing', async () => {
    const context = contextWith();
    const preferences = new PreferencesDomain(context, new MemoryPreferencesStorage());
    await preferences.ready();
    await expect(preferences.setPreferences({ globalVolumeLimit: 2 })).rejects.toThrow('globalVolumeLimit must be a number from 0 to 1');
    await expect(preferences.setPreferences({ requestingMedia: 'hologram' as never })).rejects.toThrow(ValidationError);
    await expect(preferences.setPreferences({ displayName: 'x'.repeat(65) })).rejects.toThrow('displayName is longer than 64 characters');
    await expect(preferences.setPreferences({ colour: 'red' } as never)).rejects.toThrow('unknown preference colour');
    expect(context.store.state.preferences).toEqual(DEFAULT_PREFERENCES);
  });

  it('ignores a stored record that is no record at all instead of failing the session, and says so in the log', async () => {
    const storage = new MemoryPreferencesStorage();
    storage.load = async () => 'not a record';
    const logged: string[] = [];
    const context = contextWith(undefined, systemClock, logged);
    await new PreferencesDomain(context, storage).ready();
    expect(context.store.state.preferences).toEqual(DEFAULT_PREFERENCES);
    expect(logged).toEqual(['error: stored preferences ignored: ValidationError: stored preferences must be an object']);
  });
});

describe('A stored record is read field by field: what one bad or unknown field holds costs no other, and is never deleted by the next save', () => {
  /** A storage holding `record` as another build (or an older rule) wrote it, which keeps what is saved. */
  function storageHolding(record: unknown): PreferencesStorage & { held: () => unknown } {
    let held = record;
    return {
      load: async () => held,
      save: async (chosen) => {
        held = chosen;
      },
      held: () => held,
    };
  }

  it('keeps each good field and the good recent rooms, and saves another build’s fields again with the record', async () => {
    const storage = storageHolding({ displayName: 'Ada', colour: 'red', recentRooms: ['ok', '@@@'] });
    const logged: string[] = [];
    const context = contextWith(undefined, systemClock, logged);
    const preferences = new PreferencesDomain(context, storage);
    await preferences.ready();
    expect(context.store.state.preferences).toMatchObject({ displayName: 'Ada', recentRooms: ['ok'] });
    expect(logged).toEqual(['a stored preference ignored: 1 recent room naming no room']);

    await preferences.rememberRoom('x');
    expect(storage.held()).toEqual({ displayName: 'Ada', colour: 'red', recentRooms: ['x', 'ok'] });
  });

  it('drops only the field that fails its check, and says which in the log', async () => {
    const storage = storageHolding({ displayName: 'Ada', globalVolumeLimit: 7, pushToTalk: true, recentRooms: 'not a list' });
    const logged: string[] = [];
    const context = contextWith(undefined, systemClock, logged);
    await new PreferencesDomain(context, storage).ready();
    expect(context.store.state.preferences).toMatchObject({ displayName: 'Ada', globalVolumeLimit: 1, pushToTalk: true, recentRooms: [] });
    expect(logged).toEqual([
      'a stored preference ignored: ValidationError: globalVolumeLimit must be a number from 0 to 1',
      `a stored preference ignored: ValidationError: recentRooms must be a list of at most ${LIMITS.recentRooms} room names`,
    ]);
  });

  it(`keeps the first ${LIMITS.recentRooms} good rooms of a longer stored list`, async () => {
    const stored = ['!!!', ...Array.from({ length: LIMITS.recentRooms + 3 }, (_, index) => `room ${index}`)];
    const context = contextWith();
    await new PreferencesDomain(context, storageHolding({ recentRooms: stored })).ready();
    expect(context.store.state.preferences.recentRooms).toEqual(stored.slice(1, LIMITS.recentRooms + 1));
  });

  it(`carries at most ${STORED_PREFERENCES_OTHER_FIELDS_MAX_CHARS} characters of another build’s fields through a save, each as a plain field`, async () => {
    const large = 'x'.repeat(STORED_PREFERENCES_OTHER_FIELDS_MAX_CHARS);
    const stored = JSON.parse('{"__proto__": {"polluted": true}, "small": 1, "large": "' + large + '", "toString": "text"}') as unknown;
    const storage = storageHolding(stored);
    const logged: string[] = [];
    const preferences = new PreferencesDomain(contextWith(undefined, systemClock, logged), storage);
    await preferences.setPreferences({ pushToTalk: true });
    const saved = storage.held() as Record<string, unknown>;
    expect(Object.keys(saved).sort()).toEqual(['__proto__', 'pushToTalk', 'small', 'toString']);
    expect(Object.getPrototypeOf(saved)).toBe(Object.prototype);
    expect(logged).toEqual([`a stored preference ignored: 1 fields of another build (beyond ${STORED_PREFERENCES_OTHER_FIELDS_MAX_CHARS} characters of them, or not plain data)`]);
  });

  it('still refuses an unknown field or a bad recent room in a change from a tab', async () => {
    const preferences = new PreferencesDomain(contextWith(), storageHolding({ colour: 'red' }));
    await expect(preferences.setPreferences({ colour: 'blue' } as never)).rejects.toThrow('unknown preference colour');
    await expect(preferences.setPreferences({ toString: 'x' } as never)).rejects.toThrow('unknown preference toString');
    await expect(preferences.setPreferences({ recentRooms: ['fine', '@@@'] })).rejects.toThrow(ValidationError);
  });
});

describe(`A read of the stored preferences that never answers (a hung IndexedDB) holds nothing up past PREFERENCES_READ_WITHIN_MS (${PREFERENCES_READ_WITHIN_MS} ms)`, () => {
  function hungRead() {
    let answer: (stored: unknown) => void = () => {};
    const storage = new MemoryPreferencesStorage();
    storage.load = () => new Promise((resolve) => (answer = resolve));
    let saved: unknown;
    storage.save = async (chosen) => {
      saved = chosen;
    };
    const clock = new ManualClock();
    const logged: string[] = [];
    const context = contextWith(undefined, clock, logged);
    return { preferences: new PreferencesDomain(context, storage), context, clock, logged, answer: (stored: unknown) => answer(stored), saved: () => saved };
  }

  it('takes a change once the read has gone unanswered that long, on the defaults, and says why in the log', async () => {
    const { preferences, context, clock, logged } = hungRead();
    let settled = false;
    void preferences.setPreferences({ displayName: 'Ada' }).then(() => (settled = true));
    await clock.advance(PREFERENCES_READ_WITHIN_MS - 1);
    expect(settled).toBe(false);

    await clock.advance(1);
    expect(settled).toBe(true);
    expect(context.store.state.preferences).toEqual({ ...DEFAULT_PREFERENCES, displayName: 'Ada' });
    expect(logged).toEqual([`stored preferences not read (Error: no answer within ${PREFERENCES_READ_WITHIN_MS} ms): the defaults meanwhile`]);
  });

  it('takes a record that comes later under what the person chose meanwhile, and saves the two together', async () => {
    const { preferences, context, clock, answer, saved } = hungRead();
    await clock.advance(PREFERENCES_READ_WITHIN_MS);
    await preferences.setPreferences({ displayName: 'Ada' });
    await preferences.rememberRoom('new room');

    answer({ displayName: 'Old name', pushToTalk: true, recentRooms: ['old room'], colour: 'red' });
    await clock.advance(0);
    expect(context.store.state.preferences).toMatchObject({ displayName: 'Ada', pushToTalk: true, recentRooms: ['new room', 'old room'] });
    expect(saved()).toEqual({ displayName: 'Ada', pushToTalk: true, recentRooms: ['new room', 'old room'], colour: 'red' });
  });
});

describe('Recent rooms: the rooms you were in, the latest first, one entry per room, kept with your preferences on this device (beyond the spec)', () => {
  async function domain(storage = new MemoryPreferencesStorage()) {
    const context = contextWith();
    const preferences = new PreferencesDomain(context, storage);
    await preferences.ready();
    return { preferences, recent: () => context.store.state.preferences.recentRooms };
  }

  it('starts empty; a room remembered goes first, and a room remembered again moves up, under the name last given', async () => {
    const { preferences, recent } = await domain();
    expect(recent()).toEqual([]);
    await preferences.rememberRoom('team-sync');
    await preferences.rememberRoom('  Design Review ');
    expect(recent()).toEqual(['Design Review', 'team-sync']);
    // "Team Sync" is the room team-sync: one entry, now first.
    await preferences.rememberRoom('Team Sync');
    expect(recent()).toEqual(['Team Sync', 'Design Review']);
  });

  it(`keeps the latest ${LIMITS.recentRooms}`, async () => {
    const { preferences, recent } = await domain();
    for (let index = 1; index <= LIMITS.recentRooms + 2; index += 1) await preferences.rememberRoom(`room ${index}`);
    expect(recent()).toEqual(Array.from({ length: LIMITS.recentRooms }, (_, index) => `room ${LIMITS.recentRooms + 2 - index}`));
  });

  it('forgets a room by any name of it, and keeps the rest in order', async () => {
    const { preferences, recent } = await domain();
    for (const name of ['alpha', 'beta', 'gamma']) await preferences.rememberRoom(name);
    await preferences.forgetRoom('BETA');
    expect(recent()).toEqual(['gamma', 'alpha']);
  });

  it('keeps every room remembered at once by several tabs: none overwrites another', async () => {
    const { preferences, recent } = await domain();
    await Promise.all(['one', 'two', 'three'].map((name) => preferences.rememberRoom(name)));
    expect([...recent()].sort()).toEqual(['one', 'three', 'two']);
  });

  it('persists the list, so a new session (a reload, another tab) lists the same rooms', async () => {
    const storage = new MemoryPreferencesStorage();
    const first = await domain(storage);
    await first.preferences.rememberRoom('standup');
    await first.preferences.rememberRoom('retro');
    expect((await domain(storage)).recent()).toEqual(['retro', 'standup']);
  });

  it('refuses what names no room, a list too long and a list given with setPreferences that holds a bad name, changing nothing', async () => {
    const { preferences, recent } = await domain();
    await preferences.rememberRoom('kept');
    await expect(preferences.rememberRoom('!!!')).rejects.toThrow(ValidationError);
    await expect(preferences.rememberRoom(42 as never)).rejects.toThrow('a recent room must be text');
    await expect(preferences.forgetRoom('x'.repeat(LIMITS.roomNameLength + 1))).rejects.toThrow(ValidationError);
    await expect(preferences.setPreferences({ recentRooms: Array.from({ length: LIMITS.recentRooms + 1 }, (_, index) => `r${index}`) })).rejects.toThrow(
      `recentRooms must be a list of at most ${LIMITS.recentRooms} room names`,
    );
    await expect(preferences.setPreferences({ recentRooms: ['fine', '@@@'] })).rejects.toThrow(ValidationError);
    expect(recent()).toEqual(['kept']);
  });
});


describe('A browser that refuses to keep the preferences (a private window, site data blocked, a full quota) is said so in the state, for the home page to tell', () => {
  it('marks the preferences not kept when a save is refused, and kept again once a save goes through', async () => {
    let refusing = true;
    const storage = new MemoryPreferencesStorage();
    storage.save = async () => {
      if (refusing) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    const context = contextWith();
    const preferences = new PreferencesDomain(context, storage);
    await preferences.ready();
    expect(context.store.state.preferencesNotKept).toBe(false);

    await expect(preferences.setPreferences({ displayName: 'Ada' })).rejects.toThrow('quota');
    expect(context.store.state.preferences.displayName).toBe('Ada');
    expect(context.store.state.preferencesNotKept).toBe(true);

    refusing = false;
    await preferences.rememberRoom('standup');
    expect(context.store.state.preferencesNotKept).toBe(false);
  });
});
