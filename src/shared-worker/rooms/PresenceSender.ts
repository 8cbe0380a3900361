import { Utils, type Agent, type Stanzas } from 'stanza';
import { buildRoomPresence, roomPresenceKey, type RoomPresenceInput } from './roomPresence';

/**
 * Sends room presences built by `buildRoomPresence`, remembering per room what the room last saw,
 * so that an update that changes nothing is not sent.
 */
export class PresenceSender {
  private readonly sent = new Map<string, string>();

  /** The join presence (always sent); returns its stanza id, which the room's answer carries. */
  join(client: Agent, roomId: string, input: RoomPresenceInput & { join: NonNullable<RoomPresenceInput['join']> }): string {
    const id = Utils.uuid();
    this.send(client, roomId, { ...buildRoomPresence(input), id });
    return id;
  }

  /** An update, when it differs from what the room last saw. */
  update(client: Agent, roomId: string, input: Omit<RoomPresenceInput, 'join'>): void {
    const presence = buildRoomPresence(input);
    if (this.sent.get(roomId) !== roomPresenceKey(presence)) this.send(client, roomId, presence);
  }

  /** Leaves (or abandons the join of) a room. */
  leave(client: Agent | undefined, roomId: string, occupant: string | undefined): void {
    this.sent.delete(roomId);
    if (client && occupant) client.sendPresence({ to: occupant, type: 'unavailable' });
  }

  /** The room no longer holds our presence (removed, refused, connection lost). */
  forget(roomId?: string): void {
    if (roomId === undefined) this.sent.clear();
    else this.sent.delete(roomId);
  }

  /** Each carries the app's capabilities (XEP-0115): the room's XMPP apps and Parley read from them that a private message reaches us. */
  private send(client: Agent, roomId: string, presence: Stanzas.Presence): void {
    client.sendPresence({ ...presence, legacyCapabilities: client.disco.getCaps() });
    this.sent.set(roomId, roomPresenceKey(presence));
  }
}
