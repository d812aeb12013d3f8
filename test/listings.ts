/** Folders and loose files as the page posts them to the worker (a Listing of File objects), for worker tests in Node. */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Listing } from '../src/io/listing';

export function folderListing(dir: string, label: string): Listing {
  const files: Listing['files'] = [];
  const rec = (d: string) => {
    for (const n of readdirSync(d)) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) rec(p);
      else files.push({ path: relative(dir, p).split('\\').join('/'), file: new File([readFileSync(p)], n) });
    }
  };
  rec(dir);
  return { label, kind: 'folder', files };
}

export const fileListing = (paths: string[]): Listing => ({
  label: 'preds',
  kind: 'files',
  files: paths.map((p) => ({ path: p.split('/').at(-1)!, file: new File([readFileSync(p)], p.split('/').at(-1)!) })),
});
