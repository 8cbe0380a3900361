import type { ChatMessage } from './entities';

/*
 * SPEC §5 message editing, in one place: the shared worker stores records with `correctionTarget`,
 * and each tab's chat view reads them through `correctionFolder`.
 */

/**
 * SPEC §5 message editing: "a message with a replace id is accepted as a correction only if the
 * original was outgoing; otherwise it is stored as a new message."
 *
 * Our reading, applied the same way to every message, sent or received:
 * - the original is looked up by the replace id among the records of the same room, and the
 *   correction is accepted only if that record is outgoing — one of ours;
 * - XEP-0308 also requires a correction to come from the original's sender, so only our own
 *   corrections can be accepted: a peer's replace naming one of OUR stanza ids is not accepted
 *   (otherwise anyone in the room could rewrite what we said).
 * A peer's correction of their own earlier message therefore refers to an original that was not
 * outgoing: it is stored as a new message with `replace` set, and the UI may show it as an edit
 * of the message it names.
 */
export function correctionTarget(
  messages: Readonly<Record<string, ChatMessage>>,
  replace: string | undefined,
  correction: { roomAddress: string; direction: ChatMessage['direction'] },
): ChatMessage | undefined {
  if (replace === undefined || correction.direction !== 'outgoing') return undefined;
  const original = messages[replace];
  return original && original.direction === 'outgoing' && original.roomAddress === correction.roomAddress ? original : undefined;
}

/**
 * A room's stored records oldest first, as the session stored them (a peer's corrections are records
 * of their own). By time; records of the same time keep the order the session stored them in, which
 * is the order they arrived (the store's keys are never integer-like: stanza ids, and sender + stanza
 * id): two messages can come in one millisecond, and room history is stamped to the second, and a
 * correction must stay after the message it corrects to be read as its edit.
 */
export function roomMessageRecords(messages: Readonly<Record<string, ChatMessage>>, roomAddress: string): ChatMessage[] {
  // Array.prototype.sort is stable, and Object.values lists string keys in insertion order.
  return Object.values(messages)
    .filter((message) => message.roomAddress === roomAddress)
    .sort((a, b) => a.time - b.time);
}

/**
 * How a room's stored records read (the tab's chat view). The session has corrected our own
 * messages in place, and holds a peer's correction as a new record whose `replace` names the stanza
 * id it corrects. This shows such a correction as an edit of that message when it is held and came
 * from the same sender (XEP-0308: only the sender corrects), following chains of corrections;
 * otherwise the correction stands as a message of its own, marked edited. Folded records are
 * reused while nothing changes, so unchanged messages keep their identity.
 */
export function correctionFolder(): (records: readonly ChatMessage[]) => ChatMessage[] {
  type Folded = { correction: ChatMessage; folded: ChatMessage };
  let folds = new WeakMap<ChatMessage, Folded>();
  let orphans = new WeakMap<ChatMessage, ChatMessage>();
  return (records) => {
    const nextFolds = new WeakMap<ChatMessage, Folded>();
    const nextOrphans = new WeakMap<ChatMessage, ChatMessage>();
    const shown: ChatMessage[] = [];
    const originals: ChatMessage[] = [];
    // `${sender}\n${stanza id}` → index in `shown` of the message it is (or corrects).
    const indexByWireId = new Map<string, number>();
    const wireKey = (sender: string, stanzaId: string) => `${sender}\n${stanzaId}`;
    for (const record of records) {
      const corrects = record.direction === 'incoming' && record.replace !== undefined;
      const target = corrects ? indexByWireId.get(wireKey(record.senderAddress, record.replace!)) : undefined;
      const original = target === undefined ? undefined : originals[target];
      if (target !== undefined && original) {
        const previous = folds.get(original);
        const folded =
          previous?.correction === record
            ? previous.folded
            : { ...original, body: record.body, charactersCut: record.charactersCut, editedTime: record.time, customerData: record.customerData };
        nextFolds.set(original, { correction: record, folded });
        shown[target] = folded;
        indexByWireId.set(wireKey(record.senderAddress, record.stanzaId), target);
        continue;
      }
      let item = record;
      if (corrects && record.editedTime === undefined) {
        item = orphans.get(record) ?? { ...record, editedTime: record.time };
        nextOrphans.set(record, item);
      }
      indexByWireId.set(wireKey(record.senderAddress, record.stanzaId), shown.length);
      originals.push(record);
      shown.push(item);
    }
    folds = nextFolds;
    orphans = nextOrphans;
    return shown;
  };
}
