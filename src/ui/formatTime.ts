// Made on first use, not as the module loads: a page's first Intl.DateTimeFormat loads the locale's
// data, 30–40 ms of the main thread on this machine, and the room page shows no time before its
// chat or a notice does (issue 14, the join path).
let timeFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;

/** A message time as people read it in a chat header ("14:05"). */
export function formatTime(time: number): string {
  timeFormat ??= new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
  return timeFormat.format(time);
}

/** The full date and time, for a tooltip. */
export function formatDateTime(time: number): string {
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
  return dateTimeFormat.format(time);
}
