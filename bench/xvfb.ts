/**
 * A virtual X server for the viewer bench's real-input runs: Xvfb on a display number it picks
 * itself (-displayfd), so it never takes one another program holds. Debian's `xvfb` package;
 * where `hasXvfb` says it is absent, the bench runs its CDP input only.
 */
import { spawn, spawnSync } from 'node:child_process';

export const hasXvfb = (): boolean => spawnSync('sh', ['-c', 'command -v Xvfb'], { stdio: 'ignore' }).status === 0;

export async function startXvfb(width = 1600, height = 1100): Promise<{ display: number; close: () => void }> {
  // -nolisten tcp: the Unix socket only; no access control needed for a client on this machine's socket.
  const proc = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const display = await new Promise<number>((resolve, reject) => {
    let out = '';
    const fd3 = proc.stdio[3] as NodeJS.ReadableStream;
    fd3.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
    proc.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it had a display: ${stderr.trim()}`)));
    const timer = setTimeout(() => reject(new Error('Xvfb gave no display number in 10 s')), 10_000);
    fd3.once('data', () => clearTimeout(timer));
  });
  return { display, close: () => proc.kill() };
}
