import { useAtomValue } from 'jotai';
import { preferencesAtom } from '../../main-thread/sessionAtoms';
import { VOLUME } from '../../protocol/constants';
import { HeadphonesIcon } from './CallIcons';
import { useCallRuntime } from './callRuntimeContext';

/** SPEC §9: "Deafen" silences everyone (global volume limit 0); "Undeafen" brings them back (1). */
export function DeafenToggle() {
  const runtime = useCallRuntime();
  const { globalVolumeLimit } = useAtomValue(preferencesAtom);
  const deafened = globalVolumeLimit === VOLUME.deafenedGlobalLimit;
  const label = deafened ? 'Undeafen' : 'Deafen';
  return (
    <button type="button" className={`control${deafened ? ' is-off' : ''}`} aria-label={label} title={label} onClick={() => runtime.setDeafened(!deafened)}>
      <HeadphonesIcon off={deafened} />
    </button>
  );
}
