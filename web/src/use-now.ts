/** @fileoverview The wall clock for a component that shows time passing (a countdown, "5 minutes ago"). */
import { useEffect, useState } from 'react';

/** Now, in epoch milliseconds, renewed every `everyMs` (read outside render, so renders stay pure). */
export function useNow(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(id);
  }, [everyMs]);
  return now;
}
