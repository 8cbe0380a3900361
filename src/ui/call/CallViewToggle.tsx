import { changeRoomLayout, useRoomLayout } from '../roomLayout';
import { SpeakerViewIcon } from './CallIcons';

/** Switches between SPEC §9's grid and the speaker view (the person speaking large); remembered (`roomLayout.ts`). */
export function CallViewToggle() {
  const { view } = useRoomLayout();
  const speaker = view === 'speaker';
  return (
    <button
      type="button"
      className={`stage-button${speaker ? ' is-active' : ''}`}
      aria-pressed={speaker}
      title={speaker ? 'Back to the grid' : 'Show the person speaking large'}
      onClick={() => changeRoomLayout({ view: speaker ? 'grid' : 'speaker' })}
    >
      <SpeakerViewIcon />
      <span className="visually-hidden">Speaker view</span>
    </button>
  );
}
