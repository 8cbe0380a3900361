import { useEffect, useState } from 'react';
import { SPINNER_DELAY_MS } from '../protocol/clientDefaults';

/**
 * A wait's spinner, shown once the wait has lasted SPINNER_DELAY_MS. Before that its place is kept,
 * so the words beside it do not move when it comes, and it is not animated.
 */
export function Spinner() {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), SPINNER_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  return <span className={shown ? 'spinner' : 'spinner spinner-waiting'} aria-hidden="true" />;
}
