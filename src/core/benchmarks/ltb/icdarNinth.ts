/**
 * The 9th field of ICDAR res files (`x1,…,y4,<9th>`): a confidence or a transcription, decided per
 * file (icdarSubmission.ts) unless option `icdar_ninth` forces one reading. A file whose every 9th
 * field is `0` reads as confidences 0: every prediction falls below the sweep and the model scores
 * 0 — and a file of transcriptions "0" looks exactly the same. When the reading taken leaves the
 * model with no prediction in the metric, or with one confidence for all, the warning says which
 * reading was taken and the option that takes the other. The numbers stay the rule's.
 */
import type { LoadedPredictions, Protocol } from '../../model';
import type { LtbDataset } from './dataset';
import type { NinthReading } from './icdarSubmission';
import type { Variant } from './protocol';
import { rereadIcdar, type LtbPredictions } from './readPredictions';

export const NINTH_OPTION = 'icdar_ninth';

export function ninthReading(protocol: Protocol): NinthReading {
  const v = protocol.options[NINTH_OPTION];
  return v === 'confidence' || v === 'transcription' ? v : 'auto';
}

/** The predictions as the option reads them (re-read from the kept texts when it is not auto). */
export function withNinthReading(ds: LtbDataset, preds: LoadedPredictions<LtbPredictions>, protocol: Protocol): LoadedPredictions<LtbPredictions> {
  const reading = ninthReading(protocol);
  return reading === 'auto' || !preds.data.icdar ? preds : rereadIcdar(ds, preds, reading);
}

const fmt = (x: number) => String(Number(x.toFixed(6)));

/** The warning, or null when the reading taken leaves predictions the sweep can rank. */
export function ninthWarning(preds: LoadedPredictions<LtbPredictions>, v: Variant, reading: NinthReading): string | null {
  const icdar = preds.data.icdar;
  if (!icdar) {
    // A forced reading that had nothing to read is said, not silently ignored.
    return reading === 'auto' ? null : `option ${NINTH_OPTION}=${reading} changes nothing for this model: its predictions have no ICDAR line x1,…,y4,<9th field>`;
  }
  const readings = new Set(icdar.ninth.values());
  let n = 0;
  let passing = 0;
  let first = NaN;
  let equal = true;
  for (const img of preds.data.images) {
    if (!img) continue;
    for (let k = 0; k < img.scores.length; k++) {
      const s = img.scores[k];
      if (n === 0) first = s;
      else if (s !== first) equal = false;
      if (v.level(s) > 0) passing++;
      n++;
    }
  }
  // Files of one submission read two ways (some all 0 or 1, others with words) are said whatever
  // the scores; otherwise only a reading that leaves nothing to rank. One prediction alone has
  // nothing to be ranked against.
  const mixed = readings.size > 1;
  const stuck = n > 0 && (passing === 0 || (equal && n > 1));
  if (!mixed && !stuck) return null;
  const files = [...icdar.ninth.entries()];
  const count = (r: string) => files.filter(([, x]) => x === r).length;
  const how = reading === 'auto' ? 'by the file rule: a confidence only when every nine-field line has a number in [0, 1]' : `option ${NINTH_OPTION}=${reading}`;
  const lowest = fmt(v.thresholds[0]);
  const effect = !stuck
    ? 'the files read as confidences are ranked by them, the others score 1.0'
    : passing === 0
      ? `no prediction reaches the lowest score threshold ${lowest}${equal ? ` (every confidence is ${fmt(first)})` : ''}: the model has no prediction in the metric`
      : `every prediction scores ${fmt(first)}: the threshold sweep cannot rank them`;
  if (readings.has('confidence') && !readings.has('transcription')) {
    return `the 9th field of ${count('confidence')} res file(s) was read as a confidence (${how}); ${effect}. If it is a transcription, --option ${NINTH_OPTION}=transcription reads it so (every polygon then scores 1.0)`;
  }
  if (readings.has('transcription') && !readings.has('confidence')) {
    return `the 9th field of ${count('transcription')} res file(s) was read as a transcription (${how}); ${effect}. If it is a confidence, --option ${NINTH_OPTION}=confidence reads it so`;
  }
  return `the 9th field was read as a confidence in ${count('confidence')} res file(s) and as a transcription in ${count('transcription')} (${how}); ${effect}. --option ${NINTH_OPTION}=confidence or =transcription reads every file one way`;
}
