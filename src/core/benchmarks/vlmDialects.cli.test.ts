/**
 * The box dialects through the real CLI (the compiled bundle, as CI runs it): for TABench's abs
 * and rel1000 files and gansulishuzhi, one run with all fifteen dialect fixtures
 * (test/vlmDialectFixtures.ts) under the default protocol — each model's number is the spec
 * parser's and its report.json entry carries the diagnosis — and one under `boxes=auto`, which
 * reads every file by its markers: F1 exactly 1 (Kosmos-2 on word boxes excepted). Named options
 * are run for a few families; `protocols` lists the options.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../test/cli';
import { HAS_SHARED, shared } from '../../../test/shared';
import { gansuFile, tabenchFile, tabenchSizes } from '../../../test/vlmDialectFixtures';
import type { Report } from '../report';
import { BOX_FAMILIES } from '../text/vlmBoxes/families';

type Target = 'tabench-abs' | 'tabench-rel1000' | 'gansulishuzhi';
const TARGETS: Target[] = ['tabench-abs', 'tabench-rel1000', 'gansulishuzhi'];
const KEY: Record<Target, string> = { 'tabench-abs': 't2r/f1', 'tabench-rel1000': 't2r/f1', gansulishuzhi: 'iou0.5/f1' };

describe.skipIf(!HAS_SHARED)('box dialects through the CLI', () => {
  let dir: string;
  const files: Record<Target, string[]> = { 'tabench-abs': [], 'tabench-rel1000': [], gansulishuzhi: [] };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'bl-dialects-'));
    const sizes = await tabenchSizes();
    for (const f of BOX_FAMILIES) {
      for (const t of TARGETS) {
        const path = join(dir, `${f}.${t}.jsonl`);
        writeFileSync(path, t === 'gansulishuzhi' ? gansuFile(f) : tabenchFile(t === 'tabench-abs' ? 'abs' : 'rel1000', f, sizes));
        files[t].push(path);
      }
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const score = (t: Target, preds: string[], options: string[], out: string): Report => {
    const dataset = shared('data', t === 'gansulishuzhi' ? 'gansulishuzhi-mini' : 'tabench-mini');
    const r = runCli(['score', '--dataset', dataset, ...preds.flatMap((p) => ['--pred', p]), ...options.flatMap((o) => ['--option', o]), '--out', join(dir, out)]);
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(readFileSync(join(dir, out, 'report.json'), 'utf8')) as Report;
  };

  for (const t of TARGETS) {
    it(`${t}: default numbers are the spec parser's, each file diagnosed; boxes=auto reads all fifteen`, () => {
      const official = score(t, files[t], [], `${t}-default`);
      const auto = score(t, files[t], ['boxes=auto'], `${t}-auto`);
      expect(official.protocol.options).not.toHaveProperty('boxes');
      expect(auto.protocol.options.boxes).toBe('auto');
      for (const f of BOX_FAMILIES) {
        const name = `${f}.${t}`;
        const m = official.models[name];
        const a = auto.models[name];
        if (!(f === 'kosmos2' && t !== 'gansulishuzhi')) expect(a.metrics[KEY[t]], name).toBe(1);
        if (m.metrics[KEY[t]] === 1) {
          expect(m.box_dialect, name).toBeUndefined();
          continue;
        }
        expect(m.box_dialect?.official, name).toBe(m.metrics[KEY[t]]);
        expect(m.box_dialect?.fit?.option, name).toBe(`boxes=${f}`);
        expect(m.box_dialect?.fit?.value, name).toBe(a.metrics[KEY[t]]);
        expect(m.warnings.some((w) => w.startsWith('box dialect: ') && w.endsWith(`--option boxes=${f} reads them`)), name).toBe(true);
        // Under auto, the diagnosis still quotes the official number.
        expect(a.box_dialect?.official, name).toBe(m.metrics[KEY[t]]);
      }
    });
  }

  it('a named option reads its family exactly: gemini on TABench abs, qwen25vl on TABench rel1000, internvl on gansulishuzhi', () => {
    const pick = (t: Target, f: string) => files[t].find((p) => p.endsWith(`/${f}.${t}.jsonl`))!;
    for (const [t, f] of [['tabench-abs', 'gemini'], ['tabench-rel1000', 'qwen25vl'], ['gansulishuzhi', 'internvl']] as [Target, string][]) {
      const r = score(t, [pick(t, f)], [`boxes=${f}`], `${t}-${f}`);
      expect(r.protocol.options.boxes).toBe(f);
      expect(r.models[`${f}.${t}`].metrics[KEY[t]]).toBe(1);
    }
  });

  it('protocols lists the box options of TABench and gansulishuzhi', () => {
    const r = runCli(['protocols']);
    expect(r.status).toBe(0);
    const boxesLines = r.stdout.split('\n').filter((l) => l.includes('--option boxes='));
    expect(boxesLines.length).toBeGreaterThanOrEqual(2);
    for (const l of boxesLines) for (const f of ['default', 'auto', ...BOX_FAMILIES]) expect(l).toContain(f);
    expect(r.stdout).toContain('qwen25vl_min_pixels');
    expect(r.stdout).toContain('qwen25vl_max_pixels');
  });
});
