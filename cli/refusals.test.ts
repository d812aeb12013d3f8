/**
 * The edge of the command line, one row per class of hostile or unlucky input, each through the
 * real CLI on the LTB demo written to disk. A refusal is exit 2 with one line on stderr (no stack
 * trace), and leaves nothing of an earlier run damaged (the report already in --out is unchanged);
 * what is skipped is named in the report's warnings and costs nothing else (the metrics are those
 * of the clean run).
 *
 * EACCES: these tests run as root, whom no permission stops; the rows that need a real EACCES run
 * the CLI as `nobody` (uid 65534) on a chmod-000 folder or file, and are skipped when the tests
 * run neither as root nor as a user a chmod stops (then they run as that user).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ltbDemoOnDisk, runCli, type CliRun } from '../test/cliRun';
import { buildZip, stored, zipBomb } from '../test/zipFixtures';

const IS_ROOT = process.getuid?.() === 0;
const NOBODY = IS_ROOT ? 65534 : undefined;
const HAS_MKFIFO = existsSync('/usr/bin/mkfifo');

type Report = { dataset: { warnings?: string[] }; models: Record<string, { metrics: Record<string, number>; warnings: string[] }> };
const readReport = (out: string): Report => JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));

let base: { dir: string; ds: string; preds: string };
let cleanMetrics: Record<string, number>;
let cleanJsonlMetrics: Record<string, number>;
let fresh = 0;

/** A private copy of the demo folders for a row that changes them. */
function copy(): { ds: string; preds: string; dir: string } {
  const dir = join(base.dir, `row-${++fresh}`);
  mkdirSync(dir);
  cpSync(base.ds, join(dir, 'ds'), { recursive: true });
  cpSync(base.preds, join(dir, 'preds'), { recursive: true });
  return { dir, ds: join(dir, 'ds'), preds: join(dir, 'preds') };
}

/** An --out folder holding the report of an earlier run, to show a refused run damages nothing. */
function earlierOut(dir: string): { out: string; before: string } {
  const out = join(dir, 'out');
  mkdirSync(out, { recursive: true });
  const before = '{"schema": "benchlens.report/1", "earlier": true}\n';
  writeFileSync(join(out, 'report.json'), before);
  chmodSync(out, 0o777);
  return { out, before };
}

function expectOneLineRefusal(r: CliRun, message: RegExp) {
  expect(r.code, r.stderr).toBe(2);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^benchlens: /);
  expect(lines[0]).toMatch(message);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

beforeAll(async () => {
  base = await ltbDemoOnDisk();
  let r = runCli(['score', '--dataset', base.ds, '--pred', join(base.preds, 'demo-dbnet.json'), '--out', join(base.dir, 'clean')]);
  expect(r.code, r.stderr).toBe(0);
  cleanMetrics = readReport(join(base.dir, 'clean')).models['demo-dbnet'].metrics;
  r = runCli(['score', '--dataset', base.ds, '--pred', join(base.preds, 'demo-psenet.jsonl'), '--out', join(base.dir, 'clean2')]);
  expect(r.code, r.stderr).toBe(0);
  cleanJsonlMetrics = readReport(join(base.dir, 'clean2')).models['demo-psenet'].metrics;
  expect(cleanMetrics['hard/hmean']).toBeGreaterThan(0);
}, 120_000);

interface Refusal {
  name: string;
  skip?: boolean;
  uid?: number;
  /** Builds the inputs in a private copy; returns the CLI arguments after `score`. */
  setup: (c: { ds: string; preds: string; dir: string; out: string }) => string[];
  message: RegExp;
}

const REFUSALS: Refusal[] = [
  {
    name: 'a zip bomb with honest ZIP64 sizes (4 GiB in 4 MiB)',
    setup: ({ ds, preds, dir, out }) => {
      writeFileSync(join(dir, 'bomb.zip'), zipBomb(4096));
      return ['--dataset', ds, '--pred', join(preds, 'demo-dbnet.json'), '--pred', join(dir, 'bomb.zip'), '--out', out];
    },
    message: /^benchlens: bomb\.zip: res_img_1\.txt: 4096 MiB uncompressed, more than the 256 MiB an entry may hold$/,
  },
  {
    name: 'a zip bomb that lies about its sizes (declares 1 KiB, inflates to 4 GiB)',
    setup: ({ ds, dir, out }) => {
      writeFileSync(join(dir, 'liar.zip'), zipBomb(4096, 1024));
      return ['--dataset', ds, '--pred', join(dir, 'liar.zip'), '--out', out];
    },
    message: /^benchlens: liar\.zip: res_img_1\.txt: inflates more than 100 times its compressed size: a zip bomb, refused$/,
  },
  {
    name: 'an archive inside the archive',
    setup: ({ ds, dir, out }) => {
      writeFileSync(join(dir, 'outer.zip'), buildZip([stored('inner.zip', buildZip([stored('res_img_1.txt', '1,1,2,1,2,2,1,2\n')]))]));
      return ['--dataset', ds, '--pred', join(dir, 'outer.zip'), '--out', out];
    },
    message: /^benchlens: outer\.zip: holds another archive \(inner\.zip\); archives inside archives are not read, unpack it first$/,
  },
  {
    name: 'an unreadable folder inside the dataset (EACCES)',
    skip: !IS_ROOT,
    uid: NOBODY,
    setup: ({ ds, preds, out }) => {
      chmodSync(join(ds, 'anno/hard/images'), 0o000);
      return ['--dataset', ds, '--pred', join(preds, 'demo-dbnet.json'), '--out', out];
    },
    message: /^benchlens: dataset \/.*\/ds: folder anno\/hard\/images: cannot read \(permission denied\)$/,
  },
  {
    name: 'an unreadable dataset folder (EACCES)',
    skip: !IS_ROOT,
    uid: NOBODY,
    setup: ({ ds, preds, out }) => {
      chmodSync(ds, 0o000);
      return ['--dataset', ds, '--pred', join(preds, 'demo-dbnet.json'), '--out', out];
    },
    message: /^benchlens: dataset \/.*\/ds: cannot read \(permission denied\)$/,
  },
  {
    name: 'an unreadable prediction file (EACCES)',
    skip: !IS_ROOT,
    uid: NOBODY,
    setup: ({ ds, preds, out }) => {
      chmodSync(join(preds, 'demo-dbnet.json'), 0o000);
      return ['--dataset', ds, '--pred', join(preds, 'demo-dbnet.json'), '--out', out];
    },
    message: /^benchlens: demo-dbnet\.json: cannot read \(permission denied\)$/,
  },
  {
    name: 'a FIFO given as --pred (never opened: it would block)',
    skip: !HAS_MKFIFO,
    setup: ({ ds, dir, out }) => {
      execFileSync('mkfifo', [join(dir, 'p.jsonl')]);
      return ['--dataset', ds, '--pred', join(dir, 'p.jsonl'), '--out', out];
    },
    message: /^benchlens: prediction file .*p\.jsonl: a FIFO, not a file$/,
  },
  {
    name: 'a FIFO given as --dataset',
    skip: !HAS_MKFIFO,
    setup: ({ preds, dir, out }) => {
      execFileSync('mkfifo', [join(dir, 'ds.fifo')]);
      return ['--dataset', join(dir, 'ds.fifo'), '--pred', join(preds, 'demo-dbnet.json'), '--out', out];
    },
    message: /^benchlens: dataset .*ds\.fifo: not a folder$/,
  },
];

describe('refusals through the real CLI: exit 2, one line, nothing of an earlier run damaged', () => {
  for (const row of REFUSALS) {
    it.skipIf(row.skip)(row.name, () => {
      const c = copy();
      const { out, before } = earlierOut(c.dir);
      const r = runCli(['score', ...row.setup({ ...c, out })], { uid: row.uid, timeoutMs: 60_000 });
      expectOneLineRefusal(r, row.message);
      expect(readFileSync(join(out, 'report.json'), 'utf8')).toBe(before);
      expect(existsSync(join(out, 'case_analysis.jsonl'))).toBe(false);
    });
  }

  it('--out that is a file: refused before any scoring, the file untouched', () => {
    const c = copy();
    const out = join(c.dir, 'out.txt');
    writeFileSync(out, 'my notes\n');
    const r = runCli(['score', '--dataset', c.ds, '--pred', join(c.preds, 'demo-dbnet.json'), '--out', out]);
    expectOneLineRefusal(r, /^benchlens: --out .*out\.txt: a file, not a folder$/);
    expect(readFileSync(out, 'utf8')).toBe('my notes\n');
  });
});

interface Skip {
  name: string;
  skip?: boolean;
  uid?: number;
  setup: (c: { ds: string; preds: string; dir: string }) => string[];
  /** The model whose metrics must equal the clean run's, and which clean run. */
  model: string;
  jsonl?: boolean;
  /** Warnings that must be in report.json (dataset or model), and ones that must not. */
  warns?: RegExp[];
  noWarns?: RegExp[];
}

const SKIPS: Skip[] = [
  {
    name: 'dot-files in the dataset and in a prediction folder are skipped (AppleDouble ._ files, a .broken.json)',
    setup: ({ ds, preds }) => {
      writeFileSync(join(ds, 'anno/hard/images/._img_1.png'), 'Mac OS X resource fork');
      writeFileSync(join(ds, 'anno/mmocr1.x_format/.challenging_tmp.json'), '{ not json');
      writeFileSync(join(preds, '.broken.json'), '{ not json');
      renameSync(join(preds, 'demo-psenet.jsonl'), join(preds, '.demo-psenet.jsonl'));
      return ['--pred', preds];
    },
    model: 'preds',
    noWarns: [/broken|\._img_1|challenging_tmp/],
  },
  {
    name: 'a FIFO inside the dataset is skipped, not read (the run does not hang)',
    skip: !HAS_MKFIFO,
    setup: ({ ds, preds }) => {
      execFileSync('mkfifo', [join(ds, 'anno/hard/images/img_99.png')]);
      return ['--pred', join(preds, 'demo-dbnet.json')];
    },
    model: 'demo-dbnet',
  },
  {
    name: 'a symbolic link pointing outside the dataset is skipped and named; nothing outside is read',
    setup: ({ ds, preds, dir }) => {
      mkdirSync(join(dir, 'elsewhere'));
      writeFileSync(join(dir, 'elsewhere/challenging_secret.json'), '{"secret": true}');
      symlinkSync(join(dir, 'elsewhere'), join(ds, 'anno/mmocr1.x_format/more'));
      return ['--pred', join(preds, 'demo-dbnet.json')];
    },
    model: 'demo-dbnet',
    warns: [/^anno\/mmocr1\.x_format\/more: a symbolic link to .*elsewhere, outside ds \(skipped: nothing outside the folder is read\)$/],
    noWarns: [/secret/],
  },
  {
    name: 'a symbolic link to an image folder inside the dataset is followed (git-annex / DVC keep the files in a dot-folder)',
    setup: ({ ds, preds }) => {
      mkdirSync(join(ds, '.dvc/cache'), { recursive: true });
      renameSync(join(ds, 'anno/hard/images'), join(ds, '.dvc/cache/images'));
      symlinkSync('../../.dvc/cache/images', join(ds, 'anno/hard/images'));
      // A loop back to the root is skipped, not walked for ever.
      symlinkSync('..', join(ds, 'anno/loop'));
      return ['--pred', join(preds, 'demo-dbnet.json')];
    },
    model: 'demo-dbnet',
    warns: [/^anno\/loop: a symbolic link to a folder read already \(skipped\)$/],
    noWarns: [/image not found/],
  },
  {
    name: '--pred FILE reads that file only: an unreadable folder, a FIFO and a zip bomb beside it are never touched',
    skip: !IS_ROOT || !HAS_MKFIFO,
    uid: NOBODY,
    setup: ({ preds }) => {
      mkdirSync(join(preds, 'private'));
      chmodSync(join(preds, 'private'), 0o000);
      execFileSync('mkfifo', [join(preds, 'pipe.json')]);
      writeFileSync(join(preds, 'bomb.zip'), zipBomb(64, 10));
      return ['--pred', join(preds, 'demo-dbnet.json')];
    },
    model: 'demo-dbnet',
  },
  {
    name: 'a JSONL line nested 100,000 deep costs that line, named by number',
    setup: ({ preds }) => {
      const lines = readFileSync(join(preds, 'demo-psenet.jsonl'), 'utf8').trimEnd().split('\n');
      lines.splice(1, 0, '['.repeat(100_000) + ']'.repeat(100_000));
      writeFileSync(join(preds, 'demo-psenet.jsonl'), lines.join('\n') + '\n');
      return ['--pred', join(preds, 'demo-psenet.jsonl')];
    },
    model: 'demo-psenet',
    jsonl: true,
    warns: [/^demo-psenet\.jsonl: line 2: not an object$/],
  },
];

describe('what the CLI skips costs nothing else: exit 0, the skip named, the clean run’s metrics', () => {
  for (const row of SKIPS) {
    it.skipIf(row.skip)(row.name, () => {
      const c = copy();
      chmodSync(c.dir, 0o777);
      const out = join(c.dir, 'out');
      const r = runCli(['score', '--dataset', c.ds, ...row.setup(c), '--out', out], { uid: row.uid, timeoutMs: 60_000 });
      expect(r.code, r.stderr).toBe(0);
      const rep = readReport(out);
      expect(rep.models[row.model].metrics).toEqual(row.jsonl ? cleanJsonlMetrics : cleanMetrics);
      const warnings = [...(rep.dataset.warnings ?? []), ...rep.models[row.model].warnings];
      for (const w of row.warns ?? []) expect(warnings.some((x) => w.test(x)), `${w} in ${JSON.stringify(warnings)}`).toBe(true);
      for (const w of row.noWarns ?? []) expect(warnings.filter((x) => w.test(x))).toEqual([]);
    });
  }
});
