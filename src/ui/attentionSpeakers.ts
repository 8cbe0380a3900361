/** Who says an attention request aloud: the chat's log (its event line, in a live region of its own) or the alert. */
export type AttentionSpeaker = 'chat' | 'alert';

/**
 * Who says each request of those asking now (by peer address), settled as it comes: the chat's log
 * while the chat is open, the alert while it is closed (its log then renders no lines). A request
 * keeps its speaker while it holds, so opening or closing the chat does not say it again.
 */
export function attentionSpeakers(previous: ReadonlyMap<string, AttentionSpeaker>, asking: readonly string[], chatShown: boolean): Map<string, AttentionSpeaker> {
  return new Map(asking.map((address) => [address, previous.get(address) ?? (chatShown ? 'chat' : 'alert')]));
}
