import { describe, expect, it } from 'vitest';
import type { ProviderConfig } from '../../src/protocol/config';
import { DEFAULT_PREFERENCES } from '../../src/protocol/constants';
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
