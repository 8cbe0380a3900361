import { useEffect, useState } from 'react';
import { useCallRuntime } from './callRuntimeContext';

interface PeerVolumeSliderProps {
  peerAddress: string;
  displayName: string;
  /** SPEC §3 Peer volumeLimit (default 0.8). */
  volumeLimit: number;
}

/** How loud you hear one person, 0 to 1. */
export function PeerVolumeSlider({ peerAddress, displayName, volumeLimit }: PeerVolumeSliderProps) {
  const runtime = useCallRuntime();
  // The slider follows the hand at once; the peer record catches up through the session.
  const [choice, setChoice] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (choice === volumeLimit) setChoice(undefined);
  }, [choice, volumeLimit]);
  const value = choice ?? volumeLimit;
  const percent = `${Math.round(value * 100)}%`;
  return (
    <label className="tile-volume" title={`Volume of ${displayName}: ${percent}`}>
      <span className="visually-hidden">Volume of {displayName}</span>
      <input
        type="range"
        min={0}
        max={1}
        step={0.05}
        value={value}
        // Read out as a percentage, as the title shows it, not as the fraction the value is.
        aria-valuetext={percent}
        onChange={(event) => {
          const next = Number(event.target.value);
          setChoice(next);
          runtime.setPeerVolume(peerAddress, next);
        }}
      />
    </label>
  );
}
