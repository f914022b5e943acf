import { useEffect, useState } from 'preact/hooks';
import { localDateKey } from '../common/progress.js';

/**
 * The device's local date, kept current. A page left open over midnight (a desktop tab, a phone woken at 00:05)
 * moves to the new day by itself, so what it shows and what a tap logs are never the day before. Checked again a
 * moment after the next local midnight and whenever the page is shown again: a hidden tab's timers may sleep.
 */
export function useToday(): string {
  const [today, setToday] = useState(() => localDateKey(new Date()));
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      setToday(localDateKey(new Date()));
      clearTimeout(timer);
      timer = setTimeout(check, untilAfterMidnight(new Date()));
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
