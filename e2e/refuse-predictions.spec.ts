/**
 * A prediction file that cannot be scored is refused in the page too (`npx vite build && npx
 * playwright test e2e/refuse-predictions.spec.ts`): the Models panel says why, naming the file
 * and the benchmark it is for, no model is added, and the model loaded before keeps its numbers.
 * A PaddleOCR detector file, read from its own format, is added and scored.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { HAS_SHARED, shared } from '../test/shared';
import { expectMetric, metricCell, showReport } from './helpers';

const LTB_MINI = shared('data/ltb-mini');
const LTB_REF = shared('reference/ltb');
const expected = (set: string) =>
  (JSON.parse(readFileSync(join(LTB_REF, `expected-${set}-mmocr-1.0.1.json`), 'utf8')) as { models: Record<string, { metrics: Record<string, number> }> }).models[set].metrics;

test.describe('refused prediction files in the page', () => {
  test.skip(!HAS_SHARED, '*** ../shared is absent: skipping the refused-prediction browser test ***');

  test('another benchmark\'s file and an empty file are refused with the reason; no model is added, the loaded one keeps its numbers', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'benchlens-e2e-refuse-'));
    const empty = join(dir, 'results.jsonl');
    writeFileSync(empty, '');
    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(LTB_MINI);
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB — 15 splits');
    await showReport(page); // the Models panel sits beside the report
    await page.getByTestId('prediction-files-input').setInputFiles(join(LTB_REF, 'ltbmini-object.json'));
    const want = expected('ltbmini-object')['norm/hmean'];
    await expectMetric(page, 'ltbmini-object', 'norm/hmean', want);

    const models = page.getByRole('region', { name: 'Models' });
    await page.getByTestId('prediction-files-input').setInputFiles(shared('reference/tabench/qwen3vl-2b-sim.jsonl'));
    // The refusal is a notice above both views, verdict first (the Models panel points to it).
    const alert = page.getByRole('alert', { name: 'Prediction files not added' });
    await expect(alert.locator('.verdict')).toHaveText('Not LTB predictions: qwen3vl-2b-sim.jsonl is a TABench predictions file');
    await expect(alert).toContainText('nothing to score');
    await expect(models.getByRole('heading')).toHaveText('Models (1)');
    await expect(metricCell(page, 'qwen3vl-2b-sim', 'norm/hmean')).toHaveCount(0);

    await page.getByTestId('prediction-files-input').setInputFiles(empty);
    await expect(alert).toContainText('results.jsonl: no prediction lines');
    await expect(models.getByRole('heading')).toHaveText('Models (1)');
    // Nothing else was lost: the model loaded first still shows the official number.
    await expectMetric(page, 'ltbmini-object', 'norm/hmean', want);
  });

  test('a PaddleOCR system_results.txt is read as one model and scored', async ({ page }) => {
    // predict_system.py's shape: <image>\t[{"transcription", "points": [[x, y], …]}], written from
    // the reference JSON object's polygons (scores dropped: PaddleOCR writes none).
    const dir = mkdtempSync(join(tmpdir(), 'benchlens-e2e-paddle-'));
    const doc = JSON.parse(readFileSync(join(LTB_REF, 'ltbmini-object.json'), 'utf8')) as Record<string, number[][]>;
    const lines = Object.entries(doc).map(([img, entries]) => {
      const boxes = entries.map((e) => ({ transcription: '', points: e.slice(0, -1).reduce<number[][]>((a, v, i) => (i % 2 ? (a[a.length - 1].push(v), a) : [...a, [v]]), []) }));
      return `${img}\t${JSON.stringify(boxes)}`;
    });
    const file = join(dir, 'system_results.txt');
    writeFileSync(file, lines.join('\n') + '\n');
    await page.goto('/');
    await page.bringToFront();
    await page.getByTestId('dataset-folder-input').setInputFiles(LTB_MINI);
    await expect(page.getByTestId('dataset-summary')).toContainText('LTB — 15 splits');
    await showReport(page);
    await page.getByTestId('prediction-files-input').setInputFiles(file);
    await expect(metricCell(page, 'system_results', 'norm/hmean')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Warnings' })).toContainText('carry no confidence');
  });
});
