import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/protocol/config';
import { DEFAULT_PREFERENCES, LIMITS } from '../../src/protocol/constants';
import { ValidationError } from '../../src/protocol/errors';
import type { SessionContext } from '../../src/shared-worker/SessionContext';
import { PreferencesDomain } from '../../src/shared-worker/preferences/PreferencesDomain';
import { MemoryPreferencesStorage } from '../../src/shared-worker/preferences/PreferencesStorage';
import { StateStore } from '../../src/shared-worker/StateStore';
import { systemClock } from '../../src/common/clock';

function contextWith(config?: Partial<ProviderConfig>): SessionContext & { store: StateStore } {
  return {
    clock: systemClock,
    log: { info: () => {}, error: () => {} },
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

  it('ignores a corrupt stored record instead of failing the session', async () => {
    const storage = new MemoryPreferencesStorage();
    storage.load = async () => ({ displayName: 42 });
    const context = contextWith();
    await new PreferencesDomain(context, storage).ready();
    expect(context.store.state.preferences).toEqual(DEFAULT_PREFERENCES);
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

