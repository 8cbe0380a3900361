// The reference client: SimpleWebRTC 1.30.3 as its own components mount it, against Parley's
// servers (config from the gateway's /api/config), joining `?room=` on load with camera and
// microphone and showing every remote video. `npm run bench` times it beside Parley; the interop
// tests (tests/e2e/simplewebrtc*.spec.ts) put it in a call with Parley, naming it with `?name=`,
// giving a locked room's password with `?password=` and asking with `?controls=1` for its chat, its
// microphone button and its screen share, which the bench's page goes without.
import * as SWRTC from '@andyet/simplewebrtc';
import { render } from 'react-dom';
import { Provider as ReduxProvider } from 'react-redux';

const query = new URLSearchParams(location.search);
const roomName = query.get('room');
const displayName = query.get('name');
const password = query.get('password') ?? undefined;
const withControls = query.get('controls') === '1';
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

/** The room's chat as 1.30.3 keeps it, its own input (Enter sends), and who is typing, with their real-time text. */
function Chat({ roomAddress }: { roomAddress: string }) {
  return (
    <section aria-label="Chat">
      <SWRTC.ChatList
        room={roomAddress}
        renderGroup={(group) => group.chats.map((chat) => (
          <p key={chat.id}>
            <b>{group.displayName}</b>: {chat.body}
          </p>
        ))}
      />
      <SWRTC.ChatInput room={roomAddress} placeholder="Message" sendOnEnter />
      <SWRTC.ChatComposers
        room={roomAddress}
        render={({ composers }) => (
          <section aria-label="Typing">
            {composers.map((peer) => (
              <p key={peer.address}>
                {peer.displayName} is typing{peer.rtt ? `: ${peer.rtt}` : ''}
              </p>
            ))}
          </section>
        )}
      />
    </section>
  );
}

/** One button: the microphone muted or not, as 1.30.3 mutes it (its track disabled, and a session-info to the peers). */
function MicrophoneButton() {
  return (
    <SWRTC.UserControls
      render={({ isMuted, mute, unmute }) => (
        <button type="button" aria-pressed={isMuted} onClick={() => (isMuted ? unmute() : mute())}>
          Mute
        </button>
      )}
    />
  );
}

/** Shares the screen as 1.30.3 does (a stream of its own, offered in sessions of its own). */
function ShareScreenButton() {
  return (
    <SWRTC.RequestDisplayMedia
      share
      render={(getDisplayMedia) => (
        <button type="button" onClick={getDisplayMedia}>
          Share screen
        </button>
      )}
    />
  );
}

const store = SWRTC.createStore();
if (displayName) store.dispatch(SWRTC.Actions.setDisplayName(displayName));

if (!roomName) {
  root.textContent = 'Give the room as ?room=NAME.';
} else {
  render(
    <ReduxProvider store={store}>
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
          <SWRTC.Room name={roomName} password={password}>
            {({ joined, room }) => (joined ? (
              <>
                <LocalVideo />
                <RemoteVideos />
                {withControls && room.address && (
                  <>
                    <MicrophoneButton />
                    <ShareScreenButton />
                    <Chat roomAddress={room.address} />
                  </>
                )}
              </>
            ) : (
              <p role="status">{!room.roomState || room.roomState === 'joining' ? `Joining ${roomName}…` : `Not in the room: ${room.roomState}`}</p>
            ))}
          </SWRTC.Room>
        </SWRTC.Connected>
      </SWRTC.Provider>
    </ReduxProvider>,
    root,
  );
}
