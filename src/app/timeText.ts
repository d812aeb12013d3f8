/**
 * Times as people read them (issue #42 item 15: "last change 2026-12-05T10:48:13.212Z"): how long
 * ago for the recent past ("just now", "5 min ago", "3 h ago", "yesterday 14:03"), a date and time
 * beyond; the full local date and time go in the tooltip (Timestamp.tsx). Pure: `now` is given.
 */
const pad = (n: number) => String(n).padStart(2, '0');

/** "2026-12-05 10:48" in local time (the order sorts, and reads in any language). */
export function localDateTime(d: Date): string {
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The full local time with seconds and the UTC offset, for the tooltip. */
export function fullTime(d: Date): string {
  const off = -d.getTimezoneOffset();
  const sign = off >= 0 ? '+' : '−';
  return `${localDateTime(d)}:${pad(d.getSeconds())} (UTC${sign}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)})`;
}

const startOfDay = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

/** How long before `now` `when` was, in words; null for a value that is no time. */
export function relativeTime(when: string | number | Date, now: Date): string | null {
  const d = when instanceof Date ? when : new Date(when);
  const t = d.getTime();
  if (!Number.isFinite(t)) return null;
  const s = (now.getTime() - t) / 1000;
  // A clock a little ahead (another tab, another machine) still reads as now.
  if (s < -60) return localDateTime(d);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.max(1, Math.round(s / 60))} min ago`;
  const days = Math.round((startOfDay(now) - startOfDay(d)) / 86_400_000);
  if (days === 0) return `${Math.floor(s / 3600)} h ago`;
  const hm = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  if (days === 1) return `yesterday ${hm}`;
  if (days < 7) return `${days} days ago, ${hm}`;
  return localDateTime(d);
}
