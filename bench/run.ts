/**
 * `npm run bench`: throughput and memory of the hot paths at the sizes the issues name. Prints
 * figures, never pass/fail. Every `bench/*.bench.ts` exports `run(): Promise<void>`; pass names
 * to run only some (`npm run bench -- ltb`).
 */
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
  .sort();

console.log(`benchlens bench — node ${process.version}, ${new Date().toISOString()}`);
for (const f of files) {
  const mod = (await import(join(here, f))) as { run: () => Promise<void> };
  console.log(`\n== ${f.replace('.bench.ts', '')}`);
  await mod.run();
}
