/**
 * The worker's uncertainty calls in Node (the functions the worker exposes), on the LTB demo:
 * the block arrives after the report with progress, report.json carries it exactly as the CLI
 * writes it, a new score or a model change stops a running computation, ci=off leaves it out, and
 * changing only which cases are shown (LTB case_split) reuses the block — which is the block a
 * fresh computation under that option gives.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, ltbDemoOnDisk } from '../../test/cliRun';
import { computeUncertainty, uncertaintyOptions, type Protocol } from '../core';
import { makeDemo } from '../core/benchmarks/ltb/demo';
import { BenchSession } from '../core/session';
import { resetScoringApi, scoringApi } from './scoringApi';

afterEach(() => resetScoringApi());

async function openDemo() {
  const opened = await scoringApi.openDataset({ demo: 'ltb' });
  expect(opened.models).toEqual(['demo-dbnet', 'demo-psenet']);
  return opened;
}

describe('uncertainty in the worker (LTB demo)', () => {
  it('computes the block after the report, with progress to the end, and exports report.json byte for byte as the CLI writes it', async () => {
    const opened = await openDemo();
    await scoringApi.score(opened.protocol.name, opened.protocol.options);
    const ticks: [number, number][] = [];
    const block = await scoringApi.uncertainty((done, total) => void ticks.push([done, total]));
    expect(block).not.toBeNull();
    expect(block!.groups.length).toBeGreaterThan(0);
    expect(Object.keys(block!.intervals)).toEqual(['demo-dbnet', 'demo-psenet']);
    expect(block!.pairs.every((p) => p.a === 'demo-dbnet' && p.b === 'demo-psenet')).toBe(true);
    expect(ticks.at(-1)![0]).toBe(ticks.at(-1)![1]);

    const page = await scoringApi.exportReport();
    expect(JSON.parse(page).uncertainty).toEqual(block);
    const disk = await ltbDemoOnDisk();
    const out = mkdtempSync(join(tmpdir(), 'bl-unc-'));
    const cli = runCli(['score', '--dataset', disk.ds, '--pred', join(disk.preds, 'demo-dbnet.json'), '--pred', join(disk.preds, 'demo-psenet.jsonl'), '--out', out]);
    expect(cli.stderr).not.toMatch(/benchlens: /);
    expect(cli.code).toBe(0);
    const cliReport = readFileSync(join(out, 'report.json'), 'utf8');
    expect(JSON.stringify(JSON.parse(page).uncertainty)).toBe(JSON.stringify(JSON.parse(cliReport).uncertainty));
    expect(page).toBe(cliReport);
  }, 120_000);

  it('stops a running computation when a new score starts (AbortError), and computes the new one when asked', async () => {
    const opened = await openDemo();
    await scoringApi.score(opened.protocol.name, opened.protocol.options);
    const running = scoringApi.uncertainty();
    await scoringApi.score(opened.protocol.name, { ...opened.protocol.options, iou: 0.6 });
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    const block = await scoringApi.uncertainty();
    expect(block!.groups.length).toBeGreaterThan(0);
  });

  it('stops it on a rename, and the next block names the renamed model', async () => {
    const opened = await openDemo();
    await scoringApi.score(opened.protocol.name, opened.protocol.options);
    const running = scoringApi.uncertainty();
    await scoringApi.renameModel('demo-psenet', 'pse');
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
    expect(Object.keys((await scoringApi.uncertainty())!.intervals)).toEqual(['demo-dbnet', 'pse']);
  });

  it('gives no block under ci=off, and report.json has no uncertainty key', async () => {
    const opened = await openDemo();
    await scoringApi.score(opened.protocol.name, { ...opened.protocol.options, ci: 'off' });
    expect(await scoringApi.uncertainty()).toBeNull();
    expect('uncertainty' in JSON.parse(await scoringApi.exportReport())).toBe(false);
  });

  it('reuses the block when only the shown cases change (case_split), and that block is what a fresh computation gives', async () => {
    const opened = await openDemo();
    await scoringApi.score(opened.protocol.name, opened.protocol.options);
    const first = await scoringApi.uncertainty();
    const out = await scoringApi.score(opened.protocol.name, { ...opened.protocol.options, case_split: 'blurred' });
    const again = await scoringApi.uncertainty();
    expect(again).toBe(first);
    // The same block from scratch on the results scored with case_split = blurred.
    expect(await freshBlock(out.report.protocol)).toEqual(first);
    // An option that changes the metrics is another block.
    const strict = await scoringApi.score(opened.protocol.name, { ...opened.protocol.options, iou: 0.7 });
    const other = await scoringApi.uncertainty();
    expect(other).not.toEqual(first);
    expect(other).toEqual(await freshBlock(strict.report.protocol));
  });
});

/** The block computed directly by the core on a new session of the demo under `protocol`. */
async function freshBlock(protocol: Protocol) {
  const demo = await makeDemo();
  const session = await BenchSession.open(demo.source, 'ltb');
  for (const p of demo.predictions) await session.addPredictions(p);
  const results = await session.score(protocol);
  return computeUncertainty('ltb', session.dataset, results, protocol, uncertaintyOptions(protocol)!);
}
