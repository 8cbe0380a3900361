import { LIMITS } from '../../protocol/constants';
import type { Stanzas } from 'stanza';

const MUC_ROOMCONFIG_FORM_TYPE = 'http://jabber.org/protocol/muc#roomconfig';
const ROOM_SECRET_FIELD = 'muc#roomconfig_roomsecret';

/**
 * PROTOCOL.md "Lock": the submitted room config form. An empty secret unlocks (still with
 * passwordprotectedroom=1, as the 1.30.3 client sends it).
 */
export function lockForm(secret: string): Stanzas.DataForm {
  return {
    type: 'submit',
    fields: [
      { name: 'FORM_TYPE', type: 'hidden', value: MUC_ROOMCONFIG_FORM_TYPE },
      { name: 'muc#roomconfig_whois', type: 'list-single', value: 'moderators' },
      { name: ROOM_SECRET_FIELD, type: 'text-private', value: secret },
      { name: 'muc#roomconfig_passwordprotectedroom', type: 'boolean', value: true },
    ],
  };
}

/** The room secret of a room config form: undefined when empty (unlocked), absent or out of bounds. */
export function roomSecretOf(form: Stanzas.DataForm | undefined): string | undefined {
  const field = form?.fields?.find((candidate) => candidate.name === ROOM_SECRET_FIELD);
  const value = field?.value;
  return typeof value === 'string' && value.length > 0 && value.length <= LIMITS.roomPasswordLength ? value : undefined;
}
