import { useEffect, useState } from 'preact/hooks';
import { localDateKey } from '../common/progress.js';

/**
 * At most this long between two looks at the date: the device's time zone can change under an open page (a laptop
 * after a flight, set by the system minutes after it woke), no event says so, and the next midnight the timer waits
 * for is the old zone's, up to a day away (decision 0209).
 */
const RECHECK_MS = 60_000;

/**
 * The device's local date, kept current. A page left open over midnight (a desktop tab, a phone woken at 00:05)
 * moves to the new day by itself, so what it shows and what a tap logs are never the day before. Checked again a
 * moment after the next local midnight, at least once a minute, and whenever the page is shown again: a hidden
 * tab's timers may sleep.
 */
export function useToday(): string {
  const [today, setToday] = useState(() => localDateKey(new Date()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      setToday(localDateKey(new Date()));
      clearTimeout(timer);
      timer = setTimeout(check, Math.min(untilAfterMidnight(new Date()), RECHECK_MS));
    };
    check();
    document.addEventListener('visibilitychange', check);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', check);
    };
  }, []);
  return today;
}

/** Milliseconds from `now` to one second past the next local midnight (the Date constructor minds DST). */
function untilAfterMidnight(now: Date): number {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
  return midnight.getTime() - now.getTime() + 1_000;
}
