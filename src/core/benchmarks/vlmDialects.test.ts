/**
 * Box dialects of vision-language models (shared/specs/vlm-boxes.md) on the real-layout mini sets:
 * for every family × {TABench abs file, TABench rel1000 file, gansulishuzhi}, a prediction file
 * whose answers give the exact GT boxes in that family's own syntax (test/vlmDialectFixtures.ts).
 * Scored by default, the number is the spec parser's (unchanged) and the file is diagnosed with
 * the option that reads it; scored with that option, F1 is exactly 1 (Kosmos-2's 32-cell grid
 * excepted on word boxes: it cannot draw them, and the test says what it does instead).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeFolderSource } from '../../../cli/nodeSource';
import { HAS_SHARED, shared } from '../../../test/shared';
import { gansuFile, tabenchFile, tabenchSizes, type Img } from '../../../test/vlmDialectFixtures';
import { MemorySource, stem } from '../io/fileSource';
import type { ModelResult } from '../model';
import { BenchSession } from '../session';
import { BOX_FAMILIES } from '../text/vlmBoxes/families';
import type { BoxFamily } from '../text/vlmBoxes/types';

type Target = 'tabench-abs' | 'tabench-rel1000' | 'gansulishuzhi';
const HEADLINE: Record<Target, string> = { 'tabench-abs': 't2r/f1', 'tabench-rel1000': 't2r/f1', gansulishuzhi: 'iou0.5/f1' };

async function score(target: Target, file: string, text: string, options: Record<string, string> = {}): Promise<ModelResult> {
  const dataset = target === 'gansulishuzhi' ? 'gansulishuzhi-mini' : 'tabench-mini';
  const session = await BenchSession.open(nodeFolderSource(shared('data', dataset)));
  await session.addPredictions({ source: new MemorySource('preds', { [file]: text }), path: file, name: stem(file) });
  const [r] = await session.score(session.resolveProtocol(undefined, options));
  return r;
}

/** Fixtures a family cannot score exactly: Kosmos-2's 32 × 32 grid on TABench's word boxes. */
const COARSE = new Set(['kosmos2/tabench-abs', 'kosmos2/tabench-rel1000']);

describe.skipIf(!HAS_SHARED)('box dialects: a fixture per family × TABench space × gansulishuzhi', () => {
  let sizes: Map<string, Img>;
  beforeAll(async () => {
    sizes = await tabenchSizes();
  });
  const fixture = (family: BoxFamily, target: Target): [string, string] =>
    target === 'gansulishuzhi'
      ? [`${family}.jsonl`, gansuFile(family)]
      : [`${family}-${target}.jsonl`, tabenchFile(target === 'tabench-abs' ? 'abs' : 'rel1000', family, sizes)];

  for (const family of BOX_FAMILIES) {
    for (const target of ['tabench-abs', 'tabench-rel1000', 'gansulishuzhi'] as Target[]) {
      it(`${family} on ${target}: default diagnosed and unchanged, boxes=${family} reads it`, async () => {
        const [file, text] = fixture(family, target);
        const key = HEADLINE[target];
        const official = await score(target, file, text);
        const named = await score(target, file, text, { boxes: family });
        const auto = await score(target, file, text, { boxes: 'auto' });
        const coarse = COARSE.has(`${family}/${target}`);
        if (!coarse) expect(named.metrics[key]).toBe(1);
        // The official number is the spec parser's: the diagnosis quotes it and never replaces it.
        const d = official.boxDialect;
        if (official.metrics[key] === 1) {
          // Read right already (Qwen2.5-VL on a page whose resized size is its own): nothing to say.
          expect(d).toBeUndefined();
        } else {
          expect(d).toBeDefined();
          expect(d!.official).toBe(official.metrics[key]);
          expect(d!.currentValue).toBe(official.metrics[key]);
          expect(d!.dialects.map((x) => x.family)).toEqual([family === 'qwen3vl' ? 'qwen25vl' : family]);
          expect(d!.fit?.value).toBe(named.metrics[key]);
          expect(d!.fit?.option).toBe(`boxes=${family}`);
          expect(official.warnings).toContain(d!.text);
          expect(d!.text).toContain(`--option boxes=${family} reads them`);
        }
        // Under the option, the diagnosis keeps the official number beside the one read now.
        expect(named.boxDialect?.current).toBe(family);
        expect(named.boxDialect?.official).toBe(official.metrics[key]);
        expect(named.boxDialect?.currentValue).toBe(named.metrics[key]);
        // auto reads every answer by its markers (bbox_2d by the file's fit): the same as the family.
        expect(auto.metrics[key]).toBe(named.metrics[key]);
        if (coarse) {
          // The grid's best drawing of a word box: better than the spec parser, not exact.
          expect(named.metrics[key]).toBeGreaterThan(official.metrics[key]);
        }
      });
    }
  }
});
