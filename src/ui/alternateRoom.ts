import { parseRoomAddress } from '../protocol/addresses';
import { RoomNameError } from '../protocol/roomLocalpart';
import { roomNameToLocalpart } from '../protocol/rooms';
import { roomNameRefusalText } from './roomNameRefusal';

/** The service part of a room address (`room@service`). */
function serviceOf(roomAddress: string): string {
  return roomAddress.slice(roomAddress.indexOf('@') + 1);
}

/**
 * The room address for what the owner typed as the destroyed room's alternate, or why it cannot be
 * one. Only a room address on this room's service (the protocol's parser decides) is taken as it
 * is; anything else is a room name on that service, as the room config service names rooms:
 * "Team@Work" is the room "team-work", so the session is never sent an address it refuses.
 */
export function alternateRoomAddress(typed: string, roomAddress: string): { address: string } | { refusal: string } {
  const address = typedRoomAddress(typed, serviceOf(roomAddress));
  // Everyone would be sent back into the room just closed: "Team Sync" for team-sync too.
  if ('address' in address && address.address === roomAddress) return { refusal: 'That is this room. Name another room to send everyone to, or leave it empty.' };
  return address;
}

function typedRoomAddress(typed: string, service: string): { address: string } | { refusal: string } {
  const address = parseRoomAddress(typed);
  if (address && serviceOf(address) === service) return { address };
  try {
    return { address: `${roomNameToLocalpart(typed)}@${service}` };
  } catch (error) {
    if (error instanceof RoomNameError) return { refusal: roomNameRefusalText(error) };
    throw error;
  }
}
