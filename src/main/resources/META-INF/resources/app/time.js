// When something happened, as a person reads it: "just now", "5 minutes ago", "yesterday", then the local date.

const UNITS = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** `iso` relative to now, in the page's language: "just now", "5 minutes ago", "yesterday"; the local date past a week. */
export function sinceNow(iso, now = Date.now()) {
  const when = new Date(iso);
  const seconds = Math.round((when.getTime() - now) / 1000);
  if (Math.abs(seconds) < 60) {
    return 'just now';
  }
  if (-seconds >= 7 * 24 * 3600) {
    return when.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
  }
  const words = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) {
      return words.format(Math.trunc(seconds / size), unit);
    }
  }
  return 'just now';
}

/** A <time> with `iso` as its machine-readable value, the relative time as its text and the full local date and time as its title. */
export function timeElement(iso) {
  const time = document.createElement('time');
  time.dateTime = iso;
  time.textContent = sinceNow(iso);
  time.title = new Date(iso).toLocaleString(undefined, { dateStyle: 'full', timeStyle: 'long' });
  return time;
}
