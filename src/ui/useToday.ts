import { useEffect, useState } from 'react';
import { startOfDay, startOfNextDay } from './formatTime';

/** Calls `onDay` with today's local midnight, now and as each next one passes, until stopped. */
export function followDays(onDay: (today: number) => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const follow = (): void => {
    const now = Date.now();
    onDay(startOfDay(now));
    // Just past midnight, in case the timer fires a little early.
    timer = setTimeout(follow, startOfNextDay(now) - now + 50);
  };
  follow();
  return () => clearTimeout(timer);
}

/**
 * Today's local midnight, renewed as each next one passes while `following`: what names days
 * relative to now ("Today", "Yesterday") reads it, so a chat left open overnight re-labels its days
 * by itself rather than when its next message comes.
 */
export function useToday(following: boolean): number {
  const [today, setToday] = useState(() => startOfDay(Date.now()));
  useEffect(() => (following ? followDays(setToday) : undefined), [following]);
  return today;
}
