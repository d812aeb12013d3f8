/** A core reason shown verdict first: the verdict in bold on its own line, the detail under it. */
import { parseDetectionFailure, splitVerdict } from './verdict';
import './messages.css';

export function VerdictText({ message }: { message: string }) {
  const { verdict, detail } = splitVerdict(message);
  return (
    <>
      <strong className="verdict">{verdict}</strong>
      {detail && <span className="verdict-detail">{detail}</span>}
    </>
  );
}

/**
 * Why a folder could not be opened. "No recognisable benchmark" is a heading and a list of the
 * layouts each benchmark looks for — read one per line, not run together in one paragraph.
 */
export function OpenErrorText({ message }: { message: string }) {
  const failure = parseDetectionFailure(message);
  if (!failure) return <VerdictText message={message} />;
  return (
    <>
      <strong className="verdict">{failure.heading}</strong>
      <span className="verdict-detail">Benchlens looks for one of these layouts:</span>
      <ul className="expected-layouts">
        {failure.layouts.map((l) => (
          <li key={l.benchmark}>
            <b>{l.benchmark}</b>: {l.expects}
          </li>
        ))}
      </ul>
    </>
  );
}
