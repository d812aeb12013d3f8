/**
 * The built app served for a browser bench: built into a private folder (BENCH_DIST, default
 * <tmp>/<name>) so it never races other builds of dist/, reused as it is with BENCH_NO_BUILD=1,
 * unminified when profiling wants readable function names (BENCH_PROFILE=1).
 */
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build, preview } from 'vite';
import { REPO_ROOT } from '../test/shared';

export async function serveBuiltApp(name: string): Promise<{ url: string; close: () => Promise<void> }> {
  const outDir = resolve(process.env.BENCH_DIST ?? join(tmpdir(), name));
  if (process.env.BENCH_NO_BUILD !== '1' || !existsSync(join(outDir, 'index.html'))) {
    console.log(`building into ${outDir} …`);
    await build({ root: REPO_ROOT, logLevel: 'warn', build: { outDir, emptyOutDir: true, minify: process.env.BENCH_PROFILE !== '1' } });
  }
  const server = await preview({
    root: REPO_ROOT,
    logLevel: 'warn',
    build: { outDir },
    // Port 0: the OS picks a free one, so a `vite preview` left running (4173) or another
    // bench never collides with this one.
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const { port } = server.httpServer.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((r) => server.httpServer.close(() => r())),
  };
}
