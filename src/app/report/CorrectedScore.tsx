/**
 * "What if the GT were right": the same protocol rescored on a corrected copy of the dataset
 * (adapter.applyCorrections), shown beside the official numbers — which are never replaced.
 */
import { Fragment, useState } from 'react';
import type { Report, UncertaintyBlock } from '../../core';
import { scoringClient } from '../../worker/client';
import { correctionsForScoring } from '../qa/corrections';
import { downloadGroundTruth } from '../qa/download';
import { useBench } from '../store';
import { MetricCell } from './MetricCell';

/** `headlines`: the benchmark's headline numbers (its report layout), always shown; any other metric is shown when it moved. */
export function CorrectedScore({ headlines }: { headlines: readonly string[] }) {
  const official = useBench((s) => s.report);
  const fingerprint = useBench((s) => s.dataset?.info.fingerprint);
  // `block`: the corrected numbers' intervals, asked for once the numbers show (undefined: coming;
  // null: none under ci=off, or `blockError` says why they could not be computed).
  const [state, setState] = useState<{ report: Report; corrections: number; basis: Report; block?: UncertaintyBlock | null; blockError?: string } | null>(null);
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
      const report = await scoringClient().scoreCorrected(corrections);
      setState({ report, corrections: corrections.length, basis: official });
      // The intervals follow, as the report's do; a newer rescoring's state is never overwritten.
      const settle = (block: UncertaintyBlock | null, blockError?: string) => setState((prev) => (prev?.report === report ? { ...prev, block, blockError } : prev));
      scoringClient()
        .correctedUncertainty()
        .then(
          (block) => settle(block),
          (e: unknown) => settle(null, (e as Error).message),
        );
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  // The worker writes the corrected GT in the benchmark's own format (path → contents).
  const exportGt = async () => {
    setBusy(true);
    setError(null);
    try {
      const corrections = await correctionsForScoring(fingerprint);
      downloadGroundTruth(await scoringClient().exportGroundTruth(corrections), `${official.benchmark}-corrected_gt`);
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
      <button type="button" onClick={() => void exportGt()} disabled={busy} data-testid="export-corrected-gt" title="the ground truth with your corrections, in the benchmark's own files">
        Download corrected GT ({official.benchmark} format)
      </button>
      {error && <span className="muted"> {error}</span>}
      {current && <Comparison official={official} corrected={current.report} block={current.block} blockError={current.blockError} corrections={current.corrections} headlines={headlines} />}
    </section>
  );
}

function Comparison({
  official,
  corrected,
  block,
  blockError,
  corrections,
  headlines,
}: {
  official: Report;
  corrected: Report;
  block: UncertaintyBlock | null | undefined;
  blockError: string | undefined;
  corrections: number;
  headlines: readonly string[];
}) {
  const models = Object.keys(official.models);
  const heads = headlines;
  const moved = new Set<string>();
  for (const m of models) {
    for (const [k, v] of Object.entries(corrected.models[m]?.metrics ?? {})) {
      if (official.models[m].metrics[k] !== v && !/\/(hits|gt|pred|ignored|tp|fp|fn|n)$/.test(k)) moved.add(k);
    }
  }
  const keys = [...heads, ...[...moved].filter((k) => !heads.includes(k)).sort()].slice(0, 40);
  // Two columns per model, always labelled: the official number (the same as in the report
  // above, never replaced) and the number on the corrected GT. Each number's interval shows on
  // hover, as in the report's tables: the official one from the report's block, the corrected one
  // from the block the worker computed on the corrected GT (none while it is computed).
  return (
    <table className="metrics" data-testid="corrected-table">
      <caption>
        With {corrections} GT correction{corrections === 1 ? '' : 's'} (protocol {corrected.protocol.name}): official GT beside your corrected GT
        <span className="muted" data-testid="corrected-intervals">
          {block === undefined
            ? ' · intervals of the corrected numbers: computing…'
            : block
              ? ' · hover a number for its interval'
              : blockError
                ? ` · the corrected numbers' intervals could not be computed: ${blockError}`
                : ''}
        </span>
      </caption>
      <thead>
        <tr>
          <th scope="col" rowSpan={2}>
            metric
          </th>
          {models.map((m) => (
            <th key={m} scope="colgroup" colSpan={2}>
              <bdi>{m}</bdi>
            </th>
          ))}
        </tr>
        <tr>
          {models.map((m) => (
            <Fragment key={m}>
              <th scope="col">official</th>
              <th scope="col">corrected GT</th>
            </Fragment>
          ))}
        </tr>
      </thead>
      <tbody>
        {keys.map((k) => (
          <tr key={k}>
            <th scope="row">{k}</th>
            {models.map((m) => {
              const changed = official.models[m].metrics[k] !== corrected.models[m]?.metrics[k];
              return (
                <Fragment key={m}>
                  <MetricCell report={official} model={m} metric={k} kind="official" />
                  <MetricCell report={corrected} model={m} metric={k} kind="corrected" changed={changed} intervals={block ?? null} />
                </Fragment>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
