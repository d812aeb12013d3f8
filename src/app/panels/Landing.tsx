/** The first screen: open the built-in demo, open a folder, or drop one anywhere on the page. */
import { useState } from 'react';
import type { BenchmarkId } from '../../core';
import { useBenchmarkList } from '../benchmarks';
import { openDemo } from '../store/actions';
import { useBench } from '../store';
import { OpenErrorText } from '../messages/VerdictText';
import { OpenFolderButton } from './FolderInputs';
import { RecentFolders } from './RecentFolders';

export function Landing() {
  const demos = useBench((s) => s.demos);
  const status = useBench((s) => s.status);
  const error = useBench((s) => s.openError);
  const benchmarks = useBenchmarkList();
  const [picked, setChoice] = useState<BenchmarkId | null>(null);
  // The registry's first benchmark until one is picked.
  const choice = picked ?? benchmarks[0]?.id ?? null;
  const opening = status === 'opening';
  return (
    <main className="landing">
      <p className="lead">
        Score OCR / VLM benchmarks exactly as their official evaluators do, then walk through every failure on the image. Everything runs in this
        page: nothing is uploaded.
      </p>
      <div className="landing-actions">
        <section aria-label="Demo">
          <h2>Try the demo</h2>
          <label>
            Benchmark{' '}
            <select aria-label="Demo benchmark" value={choice ?? ''} onChange={(e) => setChoice(e.target.value as BenchmarkId)}>
              {benchmarks.map(({ id, description: name }) => (
                <option key={id} value={id} disabled={demos.length > 0 && !demos.includes(id)}>
                  {name}
                  {demos.length > 0 && !demos.includes(id) ? ' (no demo in this build)' : ''}
                </option>
              ))}
            </select>
          </label>{' '}
          <button type="button" className="primary" disabled={opening || choice === null} onClick={() => choice && void openDemo(choice)}>
            Open demo
          </button>
        </section>
        <section aria-label="Your data">
          <h2>Your benchmark folder</h2>
          <OpenFolderButton />
          <p className="muted">…or drop the folder anywhere on this page. Prediction files are added once it is open.</p>
        </section>
      </div>
      {opening && (
        <p role="status" className="status">
          Reading and recognising the folder…
        </p>
      )}
      {error && (
        <div role="alert" className="error open-error">
          <OpenErrorText message={error} />
        </div>
      )}
      <RecentFolders />
    </main>
  );
}
