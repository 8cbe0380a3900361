/** XEP-0245: a message whose body begins with these four characters is its sender's action. */
const ME_COMMAND = '/me ';

/**
 * The action of a `/me` message (XEP-0245), the words after the command, read as "<sender>
 * <action>" by Parley and plain XMPP clients alike; undefined for any other message, and for a
 * command with no words after it.
 */
export function meAction(body: string): string | undefined {
  if (!body.startsWith(ME_COMMAND)) return undefined;
  const action = body.slice(ME_COMMAND.length);
  return action.trim() === '' ? undefined : action;
}
