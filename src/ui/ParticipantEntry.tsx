import { useEffect, useState } from 'react';
import { errorMessage } from '../common/errorMessage';
import { ATTENTION_MS } from '../protocol/constants';
import type { Peer } from '../protocol/entities';
import { useActions } from './tabContext';
import { BellIcon } from './Icon';
import { KickPeerControl } from './KickPeerControl';
import { peerStates } from './peerStates';

interface ParticipantEntryProps {
  peer: Peer;
  /** The room does not list them now, but the call keeps them (their connection replaced): nothing can be done to them until they are back. */
  reconnecting: boolean;
  /** You own the room: you may kick others; called as you confirm a kick. */
  onKicked: ((peer: Peer, kicking: Promise<unknown>) => void) | undefined;
  /** You are in the room: you may ask others for attention. */
  canNudge: boolean;
}

/**
 * One person in the room: their name, then their states in words, then what you can do to them. An
 * attention request you sent says so in their entry for as long as they are shown it (ATTENTION_MS),
 * and one that could not go says why.
 */
export function ParticipantEntry({ peer, reconnecting, onKicked, canNudge }: ParticipantEntryProps) {
  const actions = useActions();
  // A new object per request, so that asking again shows it for ATTENTION_MS again.
  const [attention, setAttention] = useState<{ words: string } | undefined>(undefined);
  useEffect(() => {
    if (!attention) return;
    const timer = setTimeout(() => setAttention(undefined), ATTENTION_MS);
    return () => clearTimeout(timer);
  }, [attention]);
  const requestAttention = () => {
    actions.chat.requestAttention(peer.address).then(
      () => setAttention({ words: 'asked for attention' }),
      (error: unknown) => setAttention({ words: `not asked for attention (${errorMessage(error)})` }),
    );
  };
  const states = reconnecting ? [...peerStates(peer), 'reconnecting'] : peerStates(peer);
  const initial = Array.from(peer.displayName.trim())[0]?.toUpperCase() ?? '?';
  return (
    <li className={`participant${peer.speaking ? ' is-speaking' : ''}${peer.requestingAttention ? ' wants-attention' : ''}`}>
      {/* The initial is drawn by CSS, so the entry's text reads as the name followed by the states. */}
      <span className="avatar" aria-hidden="true" data-initial={initial} />
      <span className="participant-text">
        <span className="participant-name">{peer.displayName}</span>
        {states.length > 0 && (
          <span className="participant-states">
            {states.map((state) => (
              <span key={state}>
                {/* Spoken and copied as "Alice, you, owner"; shown as chips. */}
                <span className="visually-hidden">, </span>
                <span className={`chip chip-${state.replace(/\s+/g, '-')}`}>{state}</span>
              </span>
            ))}
          </span>
        )}
        {/* Present while empty: a live region speaks what is put into it, not what comes with it. */}
        <span className="participant-note" role="status">
          {attention && (
            <>
              <span className="visually-hidden">, </span>
              {attention.words}
            </>
          )}
        </span>
      </span>
      {!peer.isSelf && !reconnecting && (
        <span className="participant-actions">
          {canNudge && (
            <button
              type="button"
              className="icon-button"
              aria-label={`Request attention from ${peer.displayName}`}
              title={`Request attention from ${peer.displayName}`}
              onClick={requestAttention}
            >
              <BellIcon />
            </button>
          )}
          {onKicked && <KickPeerControl peer={peer} onKicked={onKicked} />}
        </span>
      )}
    </li>
  );
}
