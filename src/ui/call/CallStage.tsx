import { useAtomValue } from 'jotai';
import { memo } from 'react';
import { CallAlone } from './CallAlone';
import { CallControls } from './CallControls';
import { CallDetails } from './CallDetails';
import { CallGrid } from './CallGrid';
import { CallNotices } from './CallNotices';
import { CallPreview } from './CallPreview';
import { useCallRuntime } from './callRuntimeContext';
import { CallViewToggle } from './CallViewToggle';
import { OwnMediaElsewhere } from './OwnMediaElsewhere';
import { ScreenShareAnnouncer } from './ScreenShareAnnouncer';

/** The room's call in this tab: the preview, the call itself, or word that another tab runs it. */
export const CallStage = memo(function CallStage({ id, roomName }: { id: string; roomName: string }) {
  const runtime = useCallRuntime();
  const phase = useAtomValue(runtime.atoms.phase);
  return (
    <section id={id} className="call-stage" aria-label="Call">
      <CallNotices />
      {(phase === 'preview' || phase === 'joining') && <CallPreview joining={phase === 'joining'} roomName={roomName} />}
      {phase === 'in-call' && (
        <>
          <div className="stage-bar">
            <CallAlone roomName={roomName} />
            <div className="stage-tools" role="group" aria-label="View">
              <CallViewToggle />
              <CallDetails />
            </div>
          </div>
          <CallGrid />
          <ScreenShareAnnouncer />
          <CallControls />
        </>
      )}
      {phase === 'elsewhere' && (
        <div className="call-elsewhere">
          <p>You are in this call in another tab of this browser. You can chat here, or move the call to this tab.</p>
          <OwnMediaElsewhere roomAddress={runtime.roomAddress} />
          <div className="call-elsewhere-actions">
            <button type="button" className="button primary" onClick={() => runtime.moveCallHere()}>
              Move call here
            </button>
            <button type="button" className="button danger-outline" onClick={() => void runtime.hangUp()}>
              Hang up
            </button>
          </div>
        </div>
      )}
      {phase === 'unsupported' && <p className="call-elsewhere">Calls can't run in this browser. You can still chat.</p>}
    </section>
  );
});
