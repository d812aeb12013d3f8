/**
 * ICDAR res files whose every 9th field is `0` (shared/reference/ltb/ltbmini-icdar with the scores
 * replaced): the file rule reads confidences 0, every prediction falls below the sweep and the
 * model scores 0 — now with a warning naming the reading taken and the option that takes the
 * other; `icdar_ninth=transcription` scores them as polygons without a confidence.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../../test/shared';
import { MemorySource } from '../../io/fileSource';
import type { ModelResult } from '../../model';
import { BenchSession } from '../../session';
import { parseIcdarSubmission } from './icdarSubmission';

/** The reference submission with field 9 of every line rewritten by `ninth` (undefined: dropped). */
function submission(ninth: (score: string, line: number) => string | undefined): Record<string, string> {
  const dir = shared('reference/ltb/ltbmini-icdar');
  const out: Record<string, string> = {};
  for (const f of readdirSync(dir).filter((n) => n.startsWith('res_'))) {
    out[f] = readFileSync(`${dir}/${f}`, 'utf8')
      .split('\n')
      .map((l, i) => {
        if (l.trim() === '') return l;
        const fields = l.split(',');
        const v = ninth(fields[8], i);
        return [...fields.slice(0, 8), ...(v === undefined ? [] : [v])].join(',');
      })
      .join('\n');
  }
  return out;
}

async function score(files: Record<string, string>, options: Record<string, string> = {}): Promise<ModelResult> {
  const s = await BenchSession.open(nodeFolderSource(shared('data/ltb-mini')));
  await s.addPredictions({ source: new MemorySource('ltbmini-icdar', files), path: '', name: 'm' });
  return (await s.score(s.resolveProtocol(undefined, options)))[0];
}

const hmeans = (r: ModelResult) => Object.fromEntries(Object.entries(r.metrics).filter(([k]) => k.endsWith('/hmean')));

describe('parseIcdarSubmission with a forced 9th-field reading', () => {
  it('auto by the file rule; confidence / transcription as told', () => {
    const text = '0,0,10,0,10,10,0,10,0\n20,0,30,0,30,10,20,10,0\n';
    expect(parseIcdarSubmission(text)).toMatchObject({ ninth: 'confidence', layout: 'confidence' });
    expect(parseIcdarSubmission(text).polygons.map((p) => p.score)).toEqual([0, 0]);
    const t = parseIcdarSubmission(text, 'transcription');
    expect(t).toMatchObject({ ninth: 'transcription', layout: 'transcription' });
    expect(t.polygons.map((p) => p.score)).toEqual([1, 1]);
    // "2015" makes the file a transcription file; forced confidence reads the numbers as they are, and drops a word.
    const words = '0,0,10,0,10,10,0,10,2015\n20,0,30,0,30,10,20,10,SALE\n';
    expect(parseIcdarSubmission(words)).toMatchObject({ ninth: 'transcription' });
    const c = parseIcdarSubmission(words, 'confidence');
    expect(c.polygons.map((p) => p.score)).toEqual([2015]);
    expect(c.bad).toEqual(['line 2: confidence "SALE" is not a finite number (read as x1,…,y4,confidence; dropped)']);
    // No nine-field line: nothing to read either way.
    expect(parseIcdarSubmission('0,0,10,0,10,10,0,10\n').ninth).toBeNull();
  });
});

describe.skipIf(!HAS_SHARED)('ltbmini-icdar with every 9th field 0', () => {
  it('scores hmean 0 as the file rule reads it, and says which reading was taken and the option for the other', async () => {
    const r = await score(submission(() => '0'));
    for (const [k, v] of Object.entries(hmeans(r))) expect(v, k).toBe(0);
    const w = r.warnings.filter((x) => x.includes('9th field'));
    expect(w).toEqual([
      'the 9th field of 9 res file(s) was read as a confidence (by the file rule: a confidence only when every nine-field line has a number in [0, 1]); no prediction reaches the lowest score threshold 0.3 (every confidence is 0): the model has no prediction in the metric. If it is a transcription, --option icdar_ninth=transcription reads it so (every polygon then scores 1.0)',
    ]);
  });
  it('icdar_ninth=transcription scores it as the same quads without a confidence', async () => {
    const asWords = await score(submission(() => '0'), { icdar_ninth: 'transcription' });
    const noScore = await score(submission(() => undefined));
    expect(asWords.metrics).toEqual(noScore.metrics);
    expect(Object.values(hmeans(asWords)).some((v) => v > 0)).toBe(true);
    expect(asWords.warnings.join('\n')).toMatch(/field 9 read as a transcription, not a confidence \(option icdar_ninth=transcription\): every polygon scores 1\.0/);
    expect(asWords.warnings.join('\n')).toMatch(/was read as a transcription \(option icdar_ninth=transcription\); every prediction scores 1: the threshold sweep cannot rank them\. If it is a confidence, --option icdar_ninth=confidence reads it so/);
  });
  it('every confidence equal (0.5): the sweep cannot rank them, said with the option', async () => {
    const r = await score(submission(() => '0.5'));
    expect(r.warnings.join('\n')).toMatch(/read as a confidence \(by the file rule.*\); every prediction scores 0\.5: the threshold sweep cannot rank them\. If it is a transcription, --option icdar_ninth=transcription/);
  });
  it('a single prediction over the threshold is not "one score for all"', async () => {
    const r = await score({ 'res_img_1.txt': '10,10,50,10,50,30,10,30,0.9\n' });
    expect(r.warnings.filter((x) => x.includes('9th field'))).toEqual([]);
  });
  it('files of one submission read two ways are said, with the option that reads them one way', async () => {
    // res_img_1's first line ends in a word: a transcription file; the others keep their confidences.
    const files = submission((s) => s);
    files['res_img_1.txt'] = files['res_img_1.txt'].replace(/,[0-9.]+$/m, ',2015');
    const mixed = await score(files);
    expect(mixed.warnings).toContain(
      'the 9th field was read as a confidence in 8 res file(s) and as a transcription in 1 (by the file rule: a confidence only when every nine-field line has a number in [0, 1]); the files read as confidences are ranked by them, the others score 1.0. --option icdar_ninth=confidence or =transcription reads every file one way',
    );
  });
  it('a forced reading with no nine-field line to read says it changes nothing', async () => {
    const r = await score(submission(() => undefined), { icdar_ninth: 'confidence' });
    expect(r.warnings).toContain('option icdar_ninth=confidence changes nothing for this model: its predictions have no ICDAR line x1,…,y4,<9th field>');
  });
  it('the reference submission: no warning, and icdar_ninth=confidence changes no number', async () => {
    const files = submission((s) => s);
    const def = await score(files);
    expect(def.warnings.filter((x) => x.includes('9th field'))).toEqual([]);
    const forced = await score(files, { icdar_ninth: 'confidence' });
    expect(forced.metrics).toEqual(def.metrics);
    const expected = JSON.parse(readFileSync(shared('reference/ltb/expected-ltbmini-icdar-mmocr-1.0.1.json'), 'utf8')) as { models: Record<string, { metrics: Record<string, number> }> };
    const ref = Object.values(expected.models)[0].metrics;
    for (const [k, v] of Object.entries(ref)) expect(def.metrics[k], k).toBeCloseTo(v, 9);
  });
});
