import { describe, expect, it } from 'vitest';
import { fullTime, localDateTime, relativeTime } from './timeText';

describe('times for people', () => {
  const now = new Date(2026, 11, 5, 14, 30, 0);
  const ago = (ms: number) => new Date(now.getTime() - ms);

  it('say how long ago for the recent past', () => {
    expect(relativeTime(ago(10_000), now)).toBe('just now');
    expect(relativeTime(ago(5 * 60_000), now)).toBe('5 min ago');
    expect(relativeTime(ago(3 * 3_600_000), now)).toBe('3 h ago');
    expect(relativeTime(new Date(2026, 11, 4, 9, 5), now)).toBe('yesterday 09:05');
    expect(relativeTime(new Date(2026, 11, 2, 23, 59), now)).toBe('3 days ago, 23:59');
  });

  it('give a date and time beyond a week, or for a clock ahead of ours', () => {
    expect(relativeTime(new Date(2026, 0, 31, 8, 0), now)).toBe('2026-01-31 08:00');
    expect(relativeTime(new Date(2026, 11, 6, 9, 0), now)).toBe('2026-12-06 09:00');
    // A few seconds ahead (another tab's clock) is still now.
    expect(relativeTime(new Date(now.getTime() + 20_000), now)).toBe('just now');
  });

  it('read ISO strings and epoch milliseconds; refuse what is no time', () => {
    const iso = ago(2 * 60_000).toISOString();
    expect(relativeTime(iso, now)).toBe('2 min ago');
    expect(relativeTime(ago(2 * 60_000).getTime(), now)).toBe('2 min ago');
    expect(relativeTime('not a time', now)).toBeNull();
  });

  it('put the full local time, seconds and offset in the tooltip', () => {
    const d = new Date(2026, 11, 5, 10, 48, 13);
    expect(localDateTime(d)).toBe('2026-12-05 10:48');
    expect(fullTime(d)).toMatch(/^2026-12-05 10:48:13 \(UTC[+−]\d\d:\d\d\)$/);
  });
});
