import type { RoomNameError } from '../protocol/roomLocalpart';

/**
 * Why a name cannot name a room, in the words a person reads wherever they gave it (the home page,
 * a room's address, the destroy dialog's alternate room): the rules' own sentence, or ours where
 * theirs is a developer's ("room name has no letters or digits").
 */
export function roomNameRefusalText(refused: RoomNameError): string {
  return refused.kind === 'empty' ? 'That room name has no letters or digits that can name a room.' : refused.message;
}
