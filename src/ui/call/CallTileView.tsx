import type { CallTile } from '../../main-thread/callTab/callTiles';
import { useCallRuntime } from './callRuntimeContext';
import { EnlargeIcon, MicrophoneIcon } from './CallIcons';
import { OwnWholeScreen } from './OwnWholeScreen';
import { MediaAudio } from './MediaAudio';
import { PeerVolumeSlider } from './PeerVolumeSlider';
import { TileConnection } from './TileConnection';
import { TileCameraTrouble } from './TileCameraTrouble';
import { TileStall } from './TileStall';
import { TileVideo } from './TileVideo';

/** The tile's accessible name: the person, "(you)" for yourself, or whose screen it is. */
function tileLabel(tile: Pick<CallTile, 'kind' | 'isSelf' | 'displayName'>): string {
  if (tile.kind === 'screen') return tile.isSelf ? 'Your screen' : `${tile.displayName}'s screen`;
  return tile.isSelf ? `${tile.displayName} (you)` : tile.displayName;
}

interface CallTileViewProps {
  tile: CallTile;
  area: string | undefined;
  /** Shown large above the others (enlarged, or the speaker view's speaker). */
  featured: boolean;
  /** The person enlarged it. */
  enlarged: boolean;
  canEnlarge: boolean;
}

/**
 * One tile of the grid: the video (your own camera mirrored; your own whole screen said in words,
 * not shown), or the person's initial while it is off or has not shown a frame yet; the person's
 * audio, or the screen's sound; their name with muted / screen (with sound) marks and whether your connection with them is still being
 * set up, was cut off or cannot be made, or their video stalls on the way (how their video reaches
 * you is in "Call details"), and on your own why your camera could not start; a ring
 * while they speak; for others, their volume; and enlarging it.
 */
export function CallTileView({ tile, area, featured, enlarged, canEnlarge }: CallTileViewProps) {
  const runtime = useCallRuntime();
  const initial = Array.from(tile.displayName.trim())[0]?.toUpperCase() ?? '?';
  const avatar = <div className="tile-avatar" aria-hidden="true" data-initial={initial} />;
  const classes = ['call-tile', tile.speaking ? 'is-speaking' : '', tile.kind === 'screen' ? 'is-screen' : '', featured ? 'is-featured' : ''].filter(Boolean).join(' ');
  return (
    // Focusable by a tap (not by Tab): a touch screen has no hover, and a tile tapped shows its tools (parley.css).
    <figure className={classes} aria-label={tileLabel(tile)} tabIndex={-1} style={area ? { gridArea: area } : undefined}>
      {tile.videoItemId === undefined ? (
        avatar
      ) : tile.kind === 'screen' && tile.isSelf && runtime.isWholeScreen(tile.videoItemId) ? (
        <OwnWholeScreen withSound={tile.withSound} />
      ) : (
        <TileVideo key={tile.key} itemId={tile.videoItemId} mirrored={tile.mirrored} beforeFirstFrame={avatar} />
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
        {tile.kind === 'screen' && <span className="chip chip-screen">{tile.withSound ? 'screen with sound' : 'screen'}</span>}
        {!tile.isSelf && tile.kind === 'camera' && tile.peerAddress !== undefined && <TileConnection peerAddress={tile.peerAddress} displayName={tile.displayName} />}
        {!tile.isSelf && tile.kind === 'camera' && tile.videoItemId !== undefined && <TileStall itemId={tile.videoItemId} />}
        {tile.isSelf && tile.kind === 'camera' && tile.videoItemId === undefined && <TileCameraTrouble />}
        {tile.kind === 'camera' && tile.muted && <span className="visually-hidden">, muted</span>}
        {tile.speaking && <span className="visually-hidden">, speaking</span>}
      </figcaption>
      {canEnlarge && (
        <button
          type="button"
          className="tile-enlarge"
          aria-label={`Enlarge ${tileLabel(tile)}`}
          title={enlarged ? 'Back to the grid' : 'Enlarge'}
          aria-pressed={enlarged}
          onClick={() => runtime.toggleEnlarged(tile.key)}
        >
          <EnlargeIcon shrink={enlarged} />
        </button>
      )}
      {tile.peerAddress !== undefined && tile.volumeLimit !== undefined && (
        <PeerVolumeSlider peerAddress={tile.peerAddress} displayName={tile.displayName} volumeLimit={tile.volumeLimit} />
      )}
    </figure>
  );
}
