/**
 * A TABench prediction file in the wrong coordinate space, in real Chromium
 * (`npx vite build && npx playwright test e2e/coord-space.spec.ts`): the abs benchmark lines of
 * shared/data/tabench-mini answered with the rel1000 file's boxes. The page says so in the
 * warnings with the counts and the option, and choosing that option in the protocol controls
 * scores the same file perfectly, with the warning gone.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { HAS_SHARED, shared } from '../test/shared';
import { expectMetric, metricCell, showReport } from './helpers';

const MINI = shared('data/tabench-mini');

/** T2R lines of the abs file, each answered with the same query's rel1000 GT boxes. */
function wrongSpaceFile(dir: string): string {
  const read = (f: string) =>
    readFileSync(join(MINI, f), 'utf8')
      .split('\n')
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const abs = read('TABench-abs.jsonl');
  const rel = read('TABench-rel1000.jsonl');
  const boxes = (gt: unknown) => (Array.isArray(gt) ? gt : [gt]).map((g) => (g as { bbox: number[] }).bbox);
  const lines = abs.flatMap((l, i) => (l.task_type === 'T2R' ? [JSON.stringify({ ...l, prediction: JSON.stringify(boxes(rel[i].GT)) })] : []));
  const path = join(dir, 'qwen3vl-rel-as-abs.jsonl');
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

test.describe('coordinate spaces in the page', () => {
  test.skip(!HAS_SHARED, '*** ../shared is absent: skipping the coordinate-space warning test ***');

  test('a TABench file whose boxes are rel1000 but read as abs is named in the warnings, and coords=rel1000 scores it', async ({ page }) => {
    const dir = mkdtempSync(join(tmpdir(), 'benchlens-e2e-space-'));
    try {
      const file = wrongSpaceFile(dir);
      await page.goto('/');
      await page.getByTestId('dataset-folder-input').setInputFiles(MINI);
      await expect(page.getByTestId('dataset-summary')).toContainText('TABench — 40 queries');
      await showReport(page); // warnings and protocol controls sit beside the report
      await page.getByTestId('prediction-files-input').setInputFiles(file);
      const model = 'qwen3vl-rel-as-abs';
      await expect(metricCell(page, model, 't2r/f1')).toBeVisible();

      const warnings = page.getByRole('region', { name: 'Warnings' });
      await expect(warnings).toContainText('coordinate space: all 27 predicted T2R boxes (read as abs by coord_type) lie within 0–1000');
      await expect(warnings).toContainText('they look like rel1000 boxes given as absolute: score with --option coords=rel1000');
      // The numbers are those of the file as read (abs), not silently fixed.
      const f1 = Number((await metricCell(page, model, 't2r/f1').getAttribute('title'))!.split(' = ')[1]);
      expect(f1).toBeLessThan(0.5);

      // The option the warning names is a control on the page; the Qwen2-VL reading is one too.
      await expect(page.getByLabel('qwen2vl_boxes')).toBeVisible();
      await page.getByLabel('coords', { exact: true }).selectOption('rel1000');
      await expectMetric(page, model, 't2r/f1', 1);
      await expect(page.getByTestId('report-protocol')).toContainText('coords=rel1000');
      await expect(warnings).not.toContainText('coordinate space');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
