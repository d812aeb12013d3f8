/**
 * A TABench prediction file in a box dialect, in real Chromium
 * (`npm run -s build && npx playwright test e2e/box-dialect.spec.ts`): the rel1000 benchmark lines
 * of shared/data/tabench-mini, each T2R query answered with its exact GT boxes as Gemini writes
 * them (`box_2d`, y first, 0–1000; test/vlmDialectFixtures.ts). Beside the model the page says
 * what the boxes look like with the official number first and the fitting reading's number; one
 * click reads the file as Gemini: F1 1, the option in the report's protocol and in the link, and a
 * way back to the official reading. With a second model in another dialect (MiniCPM-V), both notes
 * offer `auto` — the option reads every model — and one click reads both. Screenshots at 1366×768
 * go to test-results/box-dialect-*.png (looked at when the page changes).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { HAS_SHARED, shared } from '../test/shared';
import { WRITERS, type Unit } from '../test/vlmDialectFixtures';
import { expectMetric, metricCell, showReport } from './helpers';

const MINI = shared('data/tabench-mini');

function dialectFile(dir: string, family: 'gemini' | 'minicpmv', name: string): string {
  const lines = readFileSync(join(MINI, 'TABench-rel1000.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.task_type === 'T2R')
    .map((l) => {
      const boxes = (Array.isArray(l.GT) ? l.GT : [l.GT]).map((g) => (g as { bbox: number[] }).bbox);
      const unit = boxes.map((b): Unit => [b[0] / 1000, b[1] / 1000, b[2] / 1000, b[3] / 1000]);
      return JSON.stringify({ ...l, prediction: WRITERS[family](unit, { width: 1000, height: 1000 }) });
    });
  const path = join(dir, `${name}.jsonl`);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

test.describe('box dialects in the page', () => {
  test.skip(!HAS_SHARED, '*** ../shared is absent: skipping the box-dialect one-click test ***');

  test('a Gemini box_2d file is diagnosed beside the model, and one click reads it as Gemini', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'benchlens-e2e-dialect-'));
    try {
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.goto('/');
      await page.getByTestId('dataset-folder-input').setInputFiles(MINI);
      await expect(page.getByTestId('dataset-summary')).toContainText('TABench');
      await showReport(page);
      await page.getByTestId('prediction-files-input').setInputFiles(dialectFile(dir, 'gemini', 'gemini-2.5-flash'));
      const model = 'gemini-2.5-flash';
      await expect(metricCell(page, model, 't2r/f1')).toBeVisible();
      // The official number is the spec parser's, unchanged: Gemini's y-first boxes match nothing.
      await expectMetric(page, model, 't2r/f1', 0);

      const note = page.getByRole('note', { name: `Box dialect of ${model}` });
      await expect(note).toContainText("20 of 20 answers write Gemini 2.x boxes (box_2d JSON, y first, 0–1000): the spec's parser misreads them.");
      await expect(note).toContainText('T2R F1: official 0.00 · as gemini 100.00');
      await expect(page.getByRole('region', { name: 'Warnings' })).toContainText('--option boxes=gemini reads them');
      await page.screenshot({ path: 'test-results/box-dialect-diagnosed.png' });

      await note.getByRole('button', { name: 'Read as gemini' }).click();
      await expectMetric(page, model, 't2r/f1', 1);
      await expect(page.getByTestId('report-protocol')).toContainText('boxes=gemini');
      await expect.poll(() => new URL(page.url()).hash).toContain('po.boxes=gemini');
      // Both numbers stay on screen, the official one first.
      await expect(note).toContainText('Now read as Gemini 2.x (boxes=gemini) — not the official reading.');
      await expect(note).toContainText('T2R F1: official 0.00 · as gemini 100.00');
      await expect(note.getByRole('button', { name: 'Read as gemini' })).toHaveCount(0);
      await page.screenshot({ path: 'test-results/box-dialect-read.png' });

      await note.getByRole('button', { name: 'Back to the official reading' }).click();
      await expectMetric(page, model, 't2r/f1', 0);
      await expect(page.getByTestId('report-protocol')).not.toContainText('boxes=');

      // A second model in another dialect: the option reads every model, so each note offers auto
      // (each file by its own markers), and one click reads both right.
      await page.getByTestId('prediction-files-input').setInputFiles(dialectFile(dir, 'minicpmv', 'minicpm-v-4.5'));
      const other = page.getByRole('note', { name: 'Box dialect of minicpm-v-4.5' });
      await expect(other).toContainText('20 of 20 answers write MiniCPM-V 2.5–4.5 boxes');
      await expect(other).toContainText('T2R F1: official 0.00 · as auto 100.00');
      await expect(note).toContainText('T2R F1: official 0.00 · as auto 100.00');
      await page.screenshot({ path: 'test-results/box-dialect-two-models.png' });
      await other.getByRole('button', { name: 'Read as auto (each file by its markers)' }).click();
      await expectMetric(page, model, 't2r/f1', 1);
      await expectMetric(page, 'minicpm-v-4.5', 't2r/f1', 1);
      await expect(page.getByTestId('report-protocol')).toContainText('boxes=auto');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
