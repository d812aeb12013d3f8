/**
 * The port the browser tests serve the built app on. Another program (a `vite preview` the
 * user left running, say) may hold 4173, so the first evaluation of the Playwright config asks
 * the OS for a free port and stores it in the environment: Playwright's worker processes
 * evaluate the config again and must agree on the same port, and they inherit the environment.
 */
import { execFileSync } from 'node:child_process';

const KEY = 'BENCHLENS_E2E_PORT';

export function e2ePort(): number {
  if (!process.env[KEY]) {
    // A child process, because the config must be synchronous and net.listen is not.
    const out = execFileSync(
      process.execPath,
      ['-e', "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close();})"],
      { encoding: 'utf8' },
    );
    process.env[KEY] = out.trim();
  }
  const port = Number(process.env[KEY]);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`${KEY}=${process.env[KEY]} is not a port`);
  return port;
}
