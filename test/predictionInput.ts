/**
 * A prediction file or folder on disk as the core reads it (what the CLI's `--pred` makes, without
 * its error messages): a folder is read as a whole, a file through a one-file source; the model
 * is named by the folder, or by the file's stem.
 */
import { statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { nodeFolderSource } from '../cli/nodeSource';
import { singleFileSource, stem } from '../src/core/io/fileSource';
import type { PredictionInput } from '../src/core/model';

export function predictionInput(path: string): PredictionInput {
  if (statSync(path).isDirectory()) return { source: nodeFolderSource(path), path: '', name: basename(path) };
  return { source: singleFileSource(nodeFolderSource(dirname(path)), basename(path)), path: basename(path), name: stem(path) };
}
