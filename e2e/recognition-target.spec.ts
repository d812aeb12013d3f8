/**
 * A batch output without target indices (custom_id `<image_path>#recognition`): the viewer draws
 * the red box infer.py would have drawn, recomputed from the GT, as it draws a stored one. The
 * screenshot is saved for a look (test-results/recognition-target.png).
 */
import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HAS_SHARED, shared } from '../test/shared';
import { openCase } from './helpers';

const KEYS: Record<string, string> = { 字体分类: 'classification', 字符提取: 'parsing', 字符检测: 'spotting', 单字识别: 'recognition' };

/** model-b's answers as an OpenAI batch output, custom_id `<image_path>#<task>`. */
function batchOf(model: string): string {
  const lines: string[] = [];
  for (const text of readFileSync(shared(`data/chronicles-mini/infer_results/${model}/results.jsonl`), 'utf8').split('\n').filter(Boolean)) {
    const row = JSON.parse(text) as { image_path: string; infer_results: Record<string, { answer?: string }> };
    for (const [key, rec] of Object.entries(row.infer_results)) {
      const content = rec.answer ?? '';
      lines.push(JSON.stringify({ custom_id: `${row.image_path}#${KEYS[key]}`, response: { status_code: 200, body: { choices: [{ message: { content } }] } }, error: null }));
    }
  }
  const file = join(mkdtempSync(join(tmpdir(), 'chron-batch-')), `${model}-batch.jsonl`);
  writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

test.skip(!HAS_SHARED, 'needs ../shared');

test('a batch Recognition answer without a target index shows the recomputed red box and the two characters', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/');
  await page.getByTestId('dataset-folder-input').setInputFiles(shared('data/chronicles-mini'));
  await expect(page.getByTestId('case-row').first()).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('prediction-files-input').setInputFiles(batchOf('model-b'));
  await expect(page.getByLabel('Model A').locator('option', { hasText: 'model-b-batch' })).toHaveCount(1, { timeout: 60_000 });
  await page.getByLabel('Model A').selectOption('model-b-batch');
  // model-b answered 王 where infer.py's box holds 巳 (spotting index 1).
  await openCase(page, 'images/甲骨文/ob_001.png#recognition');
  const counts = await page.evaluate(() => (window.__caseViewer as unknown as { sceneCounts(p: number): Record<string, number> }).sceneCounts(0));
  expect(counts['gt:info']).toBe(1);
  await page.screenshot({ path: 'test-results/recognition-target.png' });
  // The case detail names the recomputed target as it names a stored one: U+5DF3 is 巳 (no CJK font here).
  await expect(page.getByText('the red box the model was asked about (recomputed', { exact: false })).toHaveCount(1);
  await page.getByLabel('Model A').selectOption('model-b');
  await openCase(page, 'images/甲骨文/ob_001.png#recognition');
  await page.screenshot({ path: 'test-results/recognition-target-stored.png' });
});
