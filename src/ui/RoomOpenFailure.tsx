import { roomNameError } from '../protocol/rooms';
import { roomNameRefusalText } from './roomNameRefusal';

/**
 * The room page's words for a room it could not open. The session names a refused room name in a
 * developer's words, and the refusal's kind does not cross to the tab: the name is checked again
 * here (trimmed, as the session takes it), in a chunk of its own with the rules' StringPrep tables.
 */
export function RoomOpenFailure({ roomName, error }: { roomName: string; error: string }) {
  const refused = roomNameError(roomName.trim());
  return <p>Could not open the room. {refused ? roomNameRefusalText(refused) : <span className="detail">({error})</span>}</p>;
}
