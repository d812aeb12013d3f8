/**
 * `tsx e2e/nodeReport.ts <dataset> <prediction file>`: report.json for one model, as the CLI
 * computes it (same BenchSession, same Node file source), printed to stdout — without the CLI's
 * case_analysis.jsonl, which for a 1 GiB prediction file would be ~4 GB of disk and minutes of
 * writing that the big-file browser test does not need.
 */
import { dirname, basename } from 'node:path';
import { nodeFolderSource } from '../cli/nodeSource';
import { singleFileSource, stem } from '../src/core/io/fileSource';
import { serializeReport } from '../src/core/report';
import { BenchSession } from '../src/core/session';

const [dataset, pred] = process.argv.slice(2);
const session = await BenchSession.open(nodeFolderSource(dataset));
const dir = nodeFolderSource(dirname(pred));
await session.addPredictions({ source: singleFileSource(dir, basename(pred)), path: basename(pred), name: stem(pred) });
const protocol = session.resolveProtocol(undefined, {});
process.stdout.write(serializeReport(session.report(protocol, await session.score(protocol))));
