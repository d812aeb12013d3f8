/**
 * "What if the GT were right": the same protocol rescored on a corrected copy of the dataset
 * (adapter.applyCorrections), shown beside the official numbers — which are never replaced.
 */
import { useState } from 'react';
import type { Report } from '../../core';
import { scoringClient } from '../../worker/client';
import { correctionsForScoring } from '../qa/corrections';
import { useBench } from '../store';
import { formatMetric } from './format';

/** The headline numbers of each benchmark, always shown; any other metric is shown when it moved. */
const HEADLINES: Record<string, string[]> = {
  ltb: ['hard/hmean', 'norm/hmean'],
  chronicles: ['ancient/average', 'modern/average', 'all/average'],
  tabench: ['r2t/accuracy', 't2r/f1', 'overall'],
  gansulishuzhi: ['iou0.3/f1', 'iou0.5/f1', 'iou0.7/f1'],
  'pulsebench-select': ['precision', 'recall', 'f1'],
};

export function CorrectedScore() {
  const official = useBench((s) => s.report);
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  const [state, setState] = useState<{ report: Report; corrections: number; basis: Report } | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!official || !fingerprint) return null;
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      const corrections = await correctionsForScoring(fingerprint);
      if (corrections.length === 0) {
        setError('no GT corrections yet: correct a GT instance in the case viewer first');
        setState(null);
        return;
      }
      setState({ report: await scoringClient().scoreCorrected(corrections), corrections: corrections.length, basis: official });
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const current = state && state.basis === official ? state : null;
  return (
    <section className="corrected" aria-label="Score with corrected GT">
      <button type="button" onClick={() => void run()} disabled={busy}>
        {busy ? 'Rescoring…' : 'Score with my GT corrections'}
      </button>
      {error && <span className="muted"> {error}</span>}
      {current && <Comparison official={official} corrected={current.report} corrections={current.corrections} />}
    </section>
  );
}

function Comparison({ official, corrected, corrections }: { official: Report; corrected: Report; corrections: number }) {
  const models = Object.keys(official.models);
  const heads = HEADLINES[official.benchmark] ?? [];
  const moved = new Set<string>();
  for (const m of models) {
    for (const [k, v] of Object.entries(corrected.models[m]?.metrics ?? {})) {
      if (official.models[m].metrics[k] !== v && !/\/(hits|gt|pred|ignored|tp|fp|fn|n)$/.test(k)) moved.add(k);
    }
  }
  const keys = [...heads, ...[...moved].filter((k) => !heads.includes(k)).sort()].slice(0, 40);
  return (
    <table className="metrics">
      <caption>
        With {corrections} GT correction{corrections === 1 ? '' : 's'} (protocol {corrected.protocol.name}) — official → corrected
      </caption>
      <thead>
        <tr>
          <th scope="col">metric</th>
          {models.map((m) => (
            <th key={m} scope="col">
              {m}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            {models.map((m) => {
              const a = official.models[m].metrics[k];
              const b = corrected.models[m]?.metrics[k];
              return (
                <td key={m} className="num" title={`official ${String(a)} → corrected ${String(b)}`} data-model={m} data-key={k}>
                  {formatMetric(k, a)} → <strong>{formatMetric(k, b)}</strong>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
