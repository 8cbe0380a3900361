import { useEffect, useRef, type RefObject } from 'react';
import type { ChatMessage } from '../protocol/entities';
import { focusLost } from './focusLost';
import { useActions } from './tabContext';

/** What the picker offers; any other reaction an XMPP app sent shows, and can be added to, as these. */
export const PICKABLE_REACTIONS = ['👍', '❤️', '😂', '😮', '😢', '🎉'] as const;

/** One emoji under a message: who gave it, and whether you did. */
export interface ReactionTally {
  emoji: string;
  names: string[];
  mine: boolean;
}

/** Each emoji given to the message once, in the order it was first given, with who gave it. */
export function tallyReactions(message: Pick<ChatMessage, 'reactions'>, selfAddress: string | undefined): ReactionTally[] {
  const tallies = new Map<string, ReactionTally>();
  for (const [address, { name, emojis }] of Object.entries(message.reactions ?? {})) {
    for (const emoji of emojis) {
      const tally = tallies.get(emoji) ?? { emoji, names: [], mine: false };
      tally.names.push(address === selfAddress ? 'you' : name);
      tally.mine ||= address === selfAddress;
      tallies.set(emoji, tally);
    }
  }
  return [...tallies.values()];
}

/** "Alice", "Alice and you", "Alice, Bob and you". */
function namesInWords(names: readonly string[]): string {
  return names.length < 2 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

interface MessageReactionsProps {
  message: ChatMessage;
  /** Undefined while you cannot react (out of the room): the reactions only show. */
  selfAddress: string | undefined;
  /** The picker is open (the message's React button). */
  picking: boolean;
  /** A reaction was picked: the picker closes. */
  onPicked: () => void;
  /** The message's React button: it takes the focus when the reaction you took back goes with its button. */
  reactButton: RefObject<HTMLButtonElement | null>;
}

/**
 * Under a message: its reactions (XEP-0444), each emoji with how many gave it, which adds or takes back
 * yours; and, while picking, the reactions to choose from. Your set goes to the session whole. A
 * reaction only you gave, taken back, goes with its button: the focus goes to the message's React
 * button, not to the page.
 */
export function MessageReactions({ message, selfAddress, picking, onPicked, reactButton }: MessageReactionsProps) {
  const actions = useActions();
  const tallies = tallyReactions(message, selfAddress);
  const mine = (selfAddress === undefined ? undefined : message.reactions?.[selfAddress]?.emojis) ?? [];
  const firstChoice = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (picking) firstChoice.current?.focus();
  }, [picking]);
  // The emoji only you gave that you took back, until the session has it gone.
  const takenBack = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (takenBack.current === undefined) return;
    const tally = tallies.find(({ emoji }) => emoji === takenBack.current);
    if (tally?.mine) return;
    takenBack.current = undefined;
    if (!tally && focusLost()) reactButton.current?.focus();
  });

  const toggle = (emoji: string) => {
    const next = mine.includes(emoji) ? mine.filter((one) => one !== emoji) : [...mine, emoji];
    void actions.chat.react(message.id, next).catch(() => {});
  };

  if (tallies.length === 0 && !picking) return null;
  return (
    <div className="message-reactions">
      {tallies.map(({ emoji, names, mine: given }) => (
        <button
          key={emoji}
          type="button"
          className="reaction"
          aria-pressed={given}
          aria-label={`${emoji} from ${namesInWords(names)}`}
          title={namesInWords(names)}
          disabled={selfAddress === undefined}
          onClick={() => {
            if (given && names.length === 1) takenBack.current = emoji;
            toggle(emoji);
          }}
        >
          {emoji} <span className="reaction-count">{names.length}</span>
        </button>
      ))}
      {picking && (
        <div
          className="reaction-picker"
          role="group"
          aria-label="Pick a reaction"
        >
          {PICKABLE_REACTIONS.map((emoji, index) => (
            <button
              key={emoji}
              ref={index === 0 ? firstChoice : undefined}
              type="button"
              className="reaction"
              aria-pressed={mine.includes(emoji)}
              aria-label={`React with ${emoji}`}
              onClick={() => {
                toggle(emoji);
                onPicked();
              }}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}
