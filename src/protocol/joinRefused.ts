/** How Room.error begins when the room's server answered the join with an error (XEP-0045 §7.2.6–§7.2.11). */
const JOIN_REFUSED = 'join refused: ';

/** Room.error for a join the room refused with `condition` (and the server's `text`, if any). */
export function joinRefusedError(condition: string, text: string | undefined): string {
  return `${JOIN_REFUSED}${condition}${text ? ` (${text})` : ''}`;
}

/**
 * The error condition the room refused a join with, from Room.error; undefined when the join failed
 * otherwise (unanswered, no room address): then the connection, not the room, is what to look at.
 */
export function joinRefusalCondition(error: string | undefined): string | undefined {
  if (!error?.startsWith(JOIN_REFUSED)) return undefined;
  return error.slice(JOIN_REFUSED.length).split(' ', 1)[0];
}
