const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The wall clock of an instant in `timeZone`, to the second, 24-hour, in en-US digits. Made once per zone: building
 * a formatter costs more than formatting with it, and a server or a page uses few zones. Throws for a zone this
 * runtime does not know.
 */
export function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}
