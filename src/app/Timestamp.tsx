/** A time shown as how long ago (timeText.ts), the full local time on hover; an unreadable value as it is. */
import { fullTime, relativeTime } from './timeText';

export function Timestamp({ value, testId }: { value: string | number; testId?: string }) {
  const d = new Date(value);
  const text = relativeTime(d, new Date());
  if (text === null) return <span data-testid={testId}>{String(value)}</span>;
  return (
    <time dateTime={d.toISOString()} title={fullTime(d)} data-testid={testId}>
      {text}
    </time>
  );
}
