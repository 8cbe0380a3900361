import { useAtomValue } from 'jotai';
import { typingPeersAtomFamily } from '../main-thread/sessionAtoms';

/** Who is typing (SPEC §4 chat state composing) and what they are writing, live (real-time text). */
export function TypingIndicator({ roomAddress }: { roomAddress: string }) {
  const peers = useAtomValue(typingPeersAtomFamily(roomAddress));
  if (peers.length === 0) return null;
  return (
    <section className="typing" aria-label="Typing">
      {peers.map((peer) => (
        <div key={peer.address} className="typing-entry">
          <p className="typing-who">
            {peer.chatState === 'composing' ? (
              <>
                <span className="typing-dots" aria-hidden="true">
                  <span />
                  <span />
                  <span />
                </span>
                {peer.displayName} is typing…
              </>
            ) : (
              <>{peer.displayName} paused typing</>
            )}
          </p>
          {peer.realTimeText && <p className="typing-draft">{peer.realTimeText}</p>}
        </div>
      ))}
    </section>
  );
}
