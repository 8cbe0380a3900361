import type { CallTile } from '../../main-thread/callTab/callTiles';
import { MicrophoneIcon } from './CallIcons';
import { MediaAudio } from './MediaAudio';
import { MediaVideo } from './MediaVideo';
import { PeerVolumeSlider } from './PeerVolumeSlider';

/** The tile's accessible name: the person, "(you)" for yourself, or whose screen it is. */
export function tileLabel(tile: Pick<CallTile, 'kind' | 'isSelf' | 'displayName'>): string {
  if (tile.kind === 'screen') return tile.isSelf ? 'Your screen' : `${tile.displayName}'s screen`;
  return tile.isSelf ? `${tile.displayName} (you)` : tile.displayName;
}

/**
 * One tile of the grid: the video (your own camera mirrored), or the person's initial while it is
 * off; the person's audio; their name with muted / screen marks; a ring while they speak; and for
 * others, their volume.
 */
export function CallTileView({ tile, area }: { tile: CallTile; area: string | undefined }) {
  const initial = Array.from(tile.displayName.trim())[0]?.toUpperCase() ?? '?';
  const classes = ['call-tile', tile.speaking ? 'is-speaking' : '', tile.kind === 'screen' ? 'is-screen' : ''].filter(Boolean).join(' ');
  return (
    <figure className={classes} aria-label={tileLabel(tile)} style={area ? { gridArea: area } : undefined}>
      {tile.videoItemId ? (
        <MediaVideo key={tile.videoItemId} itemId={tile.videoItemId} mirrored={tile.mirrored} />
      ) : (
        <div className="tile-avatar" aria-hidden="true" data-initial={initial} />
      )}
      {tile.audioItemIds.map((id) => (
        <MediaAudio key={id} itemId={id} />
      ))}
      <figcaption className="tile-caption">
        {tile.kind === 'camera' && tile.muted && (
          <span className="tile-muted" title="Muted">
            <MicrophoneIcon off />
          </span>
        )}
        <span className="tile-name">{tileLabel(tile)}</span>
        {tile.kind === 'screen' && <span className="chip chip-screen">screen</span>}
        {tile.kind === 'camera' && tile.muted && <span className="visually-hidden">, muted</span>}
        {tile.speaking && <span className="visually-hidden">, speaking</span>}
      </figcaption>
      {tile.peerAddress !== undefined && tile.volumeLimit !== undefined && (
        <PeerVolumeSlider peerAddress={tile.peerAddress} displayName={tile.displayName} volumeLimit={tile.volumeLimit} />
      )}
    </figure>
  );
}
