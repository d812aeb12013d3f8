/**
 * `tsx e2e/nodeReport.ts <dataset> <prediction file> [case id …]`: `{ report, cases }` on stdout —
 * report.json for one model as the CLI computes it (same BenchSession, same Node file source) and
 * the case lines of the named cases — without the CLI's whole case_analysis.jsonl, which for a
 * 1 GiB prediction file is ~4 GB of disk and minutes of writing the big-file test does not need.
 */
import { dirname, basename } from 'node:path';
import { nodeFolderSource } from '../cli/nodeSource';
import { singleFileSource, stem } from '../src/core/io/fileSource';
import { serializeReport } from '../src/core/report';
import { BenchSession } from '../src/core/session';

const [dataset, pred, ...caseIds] = process.argv.slice(2);
const session = await BenchSession.open(nodeFolderSource(dataset));
const dir = nodeFolderSource(dirname(pred));
await session.addPredictions({ source: singleFileSource(dir, basename(pred)), path: basename(pred), name: stem(pred) });
const protocol = session.resolveProtocol(undefined, {});
const results = await session.score(protocol);
const report = JSON.parse(serializeReport(session.report(protocol, results))) as unknown;
const cases: Record<string, unknown> = {};
for (const r of results) {
  const picked = r.cases.filter((c) => caseIds.includes(c.case_id));
  for (const line of session.eachCaseLine([{ ...r, cases: picked }])) cases[(JSON.parse(line) as { case_id: string }).case_id] = JSON.parse(line);
}
process.stdout.write(JSON.stringify({ report, cases }));
