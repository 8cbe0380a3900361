import type { Agent } from 'stanza';
import { roomSecretOf } from './roomLockForm';

const FEATURE_PASSWORD_PROTECTED = 'muc_passwordprotected';

/** What a lock check learns: owners learn the password too; others only whether there is one. */
export type LockStatus = { passwordRequired: boolean; password: string | undefined } | { passwordRequired: boolean };

/**
 * SPEC §4 lock state, PROTOCOL.md "After joining": an owner reads the room config form's secret;
 * anyone else reads disco#info, where `muc_passwordprotected` means locked. Rejects when the room
 * refuses or does not answer.
 */
export async function readLockStatus(client: Agent, roomAddress: string, isOwner: boolean): Promise<LockStatus> {
  if (isOwner) {
    const password = roomSecretOf(await client.getRoomConfig(roomAddress));
    return { passwordRequired: password !== undefined, password };
  }
  const info = await client.getDiscoInfo(roomAddress);
  const features = Array.isArray(info.features) ? info.features : [];
  return { passwordRequired: features.includes(FEATURE_PASSWORD_PROTECTED) };
}
