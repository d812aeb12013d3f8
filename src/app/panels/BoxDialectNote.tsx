/**
 * Beside a model: what its boxes look like when they are in a dialect the spec's parser misreads
 * (shared/specs/vlm-boxes.md), the official number first, the number the fitting reading gives,
 * and one click to read the file that way — which sets the protocol's `boxes` option, so the
 * rescored report, the link and report.json's protocol options all carry the choice.
 */
import type { BoxDialectDiagnosis } from '../../core/text/vlmBoxes/diagnose';
import { readerOf } from '../../core/text/vlmBoxes/families';
import type { BoxFamily } from '../../core/text/vlmBoxes/types';
import type { OptionValue } from '../../core';
import { formatMetric } from '../report/format';
import { setOptions } from '../report/setOptions';
import { useBench } from '../store';

/**
 * The choice the button sets. The option reads every loaded model, so with several loaded a
 * file recognised by its markers is offered `auto` (each file read by its own markers: for this
 * file the same number, see diagnose.ts) rather than one family that would misread the others.
 */
function offered(d: BoxDialectDiagnosis, models: number): { choice: string; options: Record<string, OptionValue>; value: number } | null {
  if (!d.fit || d.fitInForce) return null;
  if (models > 1 && d.dialects.length > 0 && d.fit.choice !== 'auto') {
    const auto = d.readings.find((r) => r.choice === 'auto');
    // Without an auto reading in the list the file speaks one dialect only: auto reads it as the
    // family (with the family's resize options, which auto uses for bbox_2d answers too).
    if (auto) return { choice: 'auto', options: { boxes: 'auto', ...(auto.options ?? {}) }, value: auto.value };
    return { choice: 'auto', options: { ...d.fit.options, boxes: 'auto' }, value: d.fit.value };
  }
  return { choice: d.fit.choice, options: d.fit.options, value: d.fit.value };
}

/** "max_pixels 1003520" for the button's tooltip and the note (the options beyond `boxes`). */
function extraOptions(options: Record<string, OptionValue>): string {
  return Object.entries(options)
    .filter(([k]) => k !== 'boxes')
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
}

/** A reading's name for people: the family's models, or what auto does. */
function readingName(choice: string): string {
  if (choice === 'auto') return 'each answer by its markers (auto)';
  if (choice === 'default') return "the spec's parser";
  return readerOf(choice as BoxFamily).models;
}

const METRIC_LABEL: Record<string, string> = { 't2r/f1': 'T2R F1', 'iou0.5/f1': 'F1 @ IoU 0.5' };

export function BoxDialectNote({ model }: { model: string }) {
  const d = useBench((s) => s.report?.models[model]?.box_dialect);
  const models = useBench((s) => s.models.length);
  const scoring = useBench((s) => s.scoring);
  if (!d) return null;
  const offer = offered(d, models);
  const n = (v: number) => formatMetric(d.metric, v);
  const main = d.dialects[0];
  const what = main
    ? `${main.answers} of ${d.answers} answers write ${readerOf(main.family).models} boxes (${readerOf(main.family).short})${d.dialects.length > 1 ? `, ${d.dialects.length - 1} other dialect${d.dialects.length > 2 ? 's' : ''} too` : ''}`
    : `${d.answers} answers write plain boxes`;
  return (
    <div className="box-dialect" role="note" aria-label={`Box dialect of ${model}`} data-testid="box-dialect">
      <div>
        {what}
        {d.current !== 'default' ? '.' : main ? ": the spec's parser misreads them." : ', which fit another reading better than the spec’s.'}
      </div>
      {d.current !== 'default' && <div className="small">Now read as {readingName(d.current)} (boxes={d.current}) — not the official reading.</div>}
      <div className="box-dialect-numbers">
        {METRIC_LABEL[d.metric] ?? d.metric}: <span title="the number the benchmark's spec gives (the spec's parser)">official <b>{n(d.official)}</b></span>
        {d.current !== 'default' && (
          <span>
            {' · '}as {d.current} <b>{n(d.currentValue)}</b>
          </span>
        )}
        {offer && (
          <span>
            {' · '}as {offer.choice}
            {extraOptions(offer.options) ? ` (${extraOptions(offer.options)})` : ''} <b>{n(offer.value)}</b>
          </span>
        )}
      </div>
      {offer && (
        <button type="button" disabled={scoring} title={`score with --option ${Object.entries(offer.options).map(([k, v]) => `${k}=${v}`).join(' --option ')}${models > 1 ? ' (the option reads every loaded model)' : ''}`} onClick={() => void setOptions(offer.options)}>
          Read as {offer.choice === 'auto' ? 'auto (each file by its markers)' : offer.choice}
        </button>
      )}
      {d.current !== 'default' && (
        <button type="button" className="link" disabled={scoring} title="drop the boxes option: the spec's parser, the official number" onClick={() => void setOptions({ boxes: null })}>
          Back to the official reading
        </button>
      )}
    </div>
  );
}
