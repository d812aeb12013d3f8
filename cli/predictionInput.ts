/**
 * A prediction file or folder named on the command line (`--pred`) as the core reads it: a
 * folder whole, a file alone (its folder is neither listed nor read). Tests that load the
 * reference predictions in-process call it too, so they read exactly what the CLI reads.
 */
import { statSync, type Stats } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { stem } from '../src/core/io/fileSource';
import { InputError, type PredictionInput } from '../src/core/model';
import { fsReason, kindOf, nodeFileSource, nodeFolderSource } from './nodeSource';

export function predictionInput(path: string): PredictionInput {
  const abs = resolve(path);
  let st: Stats;
  try {
    st = statSync(abs);
  } catch (e) {
    throw new InputError(`prediction file ${path}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'not found' : `cannot read (${fsReason(e)})`}`);
  }
  if (st.isDirectory()) {
    return { source: nodeFolderSource(abs), path: '', name: basename(abs) };
  }
  if (!st.isFile()) throw new InputError(`prediction file ${path}: ${kindOf(st)}, not a file`);
  // The file alone: its folder is not listed (nor anything in it read).
  const source = nodeFileSource(abs);
  // infer_results/<model>/results.jsonl: a generic file name, so the folder names the model.
  const name = /^(results|predictions|preds)$/i.test(stem(abs)) ? basename(dirname(abs)) : stem(abs);
  return { source, path: basename(abs), name };
}
