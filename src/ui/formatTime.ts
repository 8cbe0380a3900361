// Made on first use, not as the module loads: a page's first Intl.DateTimeFormat loads the locale's
// data, 30–40 ms of the main thread on this machine, and the room page shows no time before its
// chat or a notice does (issue 14, the join path).
let timeFormat: Intl.DateTimeFormat | undefined;
let dateTimeFormat: Intl.DateTimeFormat | undefined;
let dayFormat: Intl.DateTimeFormat | undefined;
let dayOfAnotherYearFormat: Intl.DateTimeFormat | undefined;

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

/** Local midnight of a time's day. */
export function startOfDay(time: number): number {
  const date = new Date(time);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
}

/** Local midnight after a time: where "Today" becomes "Yesterday" (a daylight-saving day is 23 or 25 hours long). */
export function startOfNextDay(time: number): number {
  const date = new Date(time);
  return new Date(date.getFullYear(), date.getMonth(), date.getDate() + 1).getTime();
}

/** A day as a chat's divider names it: "Today", "Yesterday", else "Monday, November 23" (with its year when not this year's). */
export function formatDay(time: number, now: number = Date.now()): string {
  // Rounded: a day with a daylight-saving change is 23 or 25 hours long.
  const daysAgo = Math.round((startOfDay(now) - startOfDay(time)) / 86_400_000);
  if (daysAgo === 0) return 'Today';
  if (daysAgo === 1) return 'Yesterday';
  if (new Date(time).getFullYear() === new Date(now).getFullYear()) {
    dayFormat ??= new Intl.DateTimeFormat(undefined, { weekday: 'long', month: 'long', day: 'numeric' });
    return dayFormat.format(time);
  }
  dayOfAnotherYearFormat ??= new Intl.DateTimeFormat(undefined, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  return dayOfAnotherYearFormat.format(time);
}
