// The benchmark's reference client: SimpleWebRTC 1.30.3 as its own components mount it, against
// Parley's servers (config from the gateway's /api/config), joining `?room=` on load with camera
// and microphone and showing every remote video. `npm run bench` times it beside Parley.
import * as SWRTC from '@andyet/simplewebrtc';
import { render } from 'react-dom';
import { Provider as ReduxProvider } from 'react-redux';

const roomName = new URLSearchParams(location.search).get('room');
const root = document.getElementById('root')!;

function RemoteVideos() {
  return (
    <SWRTC.RemoteMediaList
      video
      render={({ media }) => media.map((item) => (
        <figure key={item.id} aria-label={`remote video ${item.id}`}>
          <SWRTC.Video media={item} />
        </figure>
      ))}
    />
  );
}

function LocalVideo() {
  return (
    <SWRTC.LocalMediaList
      video
      shared
      render={({ media }) => media.slice(0, 1).map((item) => (
        <figure key={item.id} aria-label="(you)">
          <SWRTC.Video media={item} />
        </figure>
      ))}
    />
  );
}

if (!roomName) {
  root.textContent = 'Give the room as ?room=NAME.';
} else {
  render(
    <ReduxProvider store={SWRTC.createStore()}>
      <SWRTC.Provider configUrl="/api/config">
        <SWRTC.Connecting>
          <p>Connecting…</p>
        </SWRTC.Connecting>
        <SWRTC.Failed>
          <p role="alert">Could not connect.</p>
        </SWRTC.Failed>
        <SWRTC.Connected>
          <SWRTC.RequestUserMedia audio video auto />
          <SWRTC.RemoteAudioPlayer />
          <SWRTC.Room name={roomName}>
            {({ joined }) => (joined ? (
              <>
                <LocalVideo />
                <RemoteVideos />
              </>
            ) : (
              <p>Joining {roomName}…</p>
            ))}
          </SWRTC.Room>
        </SWRTC.Connected>
      </SWRTC.Provider>
    </ReduxProvider>,
    root,
  );
}
