/** Letters and digits a person reads out or types without confusing them (no i, l, o, 0 or 1). */
const READABLE = 'abcdefghjkmnpqrstuvwxyz23456789';
const GROUP_LENGTH = 4;

function readableGroup(): string {
  const values = crypto.getRandomValues(new Uint32Array(GROUP_LENGTH));
  return Array.from(values, (value) => READABLE[value % READABLE.length]).join('');
}

/**
 * A fresh room's name, e.g. "room-7kqm-x3fd": rooms open to whoever knows their name, so it is one
 * nobody guesses (about 40 random bits) and still easy to read out.
 */
export function newRoomName(): string {
  return `room-${readableGroup()}-${readableGroup()}`;
}
