/** PulseBench-Select: selection P / R / F1, and the dataset's own leaderboard beside your models. */
import { useEffect, useState } from 'react';
import type { Report } from '../../core';
import { scoringClient } from '../../worker/client';
import { useBench } from '../store';
import { formatMetric } from './format';
import { KeyTable } from './KeyTable';

const ROWS = [
  { label: 'precision', key: 'precision' },
  { label: 'recall', key: 'recall' },
  { label: 'selection F1', key: 'f1' },
  { label: 'macro precision', key: 'macro_precision' },
  { label: 'macro recall', key: 'macro_recall' },
  { label: 'macro skipped samples', key: 'macro_skipped_samples' },
  { label: 'TP', key: 'tp' },
  { label: 'FP', key: 'fp' },
  { label: 'FN', key: 'fn' },
  { label: 'samples', key: 'samples' },
];
const BOARD = [
  { col: 'precision', key: 'precision' },
  { col: 'recall', key: 'recall' },
  { col: 'selection_f1', key: 'f1' },
  { col: 'macro_precision', key: 'macro_precision' },
  { col: 'macro_recall', key: 'macro_recall' },
  { col: 'macro_skipped_samples', key: 'macro_skipped_samples' },
];

export function PulseReport({ report }: { report: Report }) {
  const version = useBench((s) => s.resultVersion);
  const [board, setBoard] = useState<Record<string, unknown>[] | null>(null);
  useEffect(() => {
    let live = true;
    scoringClient()
      .getLeaderboard()
      .then((b) => live && setBoard(b))
      .catch(() => live && setBoard(null));
    return () => {
      live = false;
    };
  }, [version]);
  const models = Object.keys(report.models);
  return (
    <div className="report-body">
      <KeyTable report={report} rows={ROWS} caption="Selection F1, positive class only (rates × 100)" />
      {board && board.length > 0 && (
        <table className="metrics">
          <caption>The dataset&apos;s leaderboard (results/) beside your models</caption>
          <thead>
            <tr>
              <th scope="col">provider</th>
              {BOARD.map((b) => (
                <th key={b.col} scope="col">
                  {b.col}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {models.map((m) => (
              <tr key={`mine-${m}`} className="summary-row">
                <th scope="row"><bdi>{m}</bdi> (yours)</th>
                {BOARD.map((b) => {
                  const v = report.models[m].metrics[b.key];
                  return (
                    <td key={b.col} className="num" title={String(v)}>
                      {formatMetric(b.key, v)}
                    </td>
                  );
                })}
              </tr>
            ))}
            {board.map((row, i) => (
              <tr key={i}>
                <th scope="row">{String(row.provider ?? row.model ?? `row ${i + 1}`)}</th>
                {BOARD.map((b) => {
                  const v = row[b.col];
                  return (
                    <td key={b.col} className="num" title={String(v)}>
                      {typeof v === 'number' ? formatMetric(b.key, v) : String(v ?? '—')}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
