const timeFormat = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A message time as people read it in a chat header ("14:05"). */
export function formatTime(time: number): string {
  return timeFormat.format(time);
}

/** The full date and time, for a tooltip. */
export function formatDateTime(time: number): string {
  return dateTimeFormat.format(time);
}
