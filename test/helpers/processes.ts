/** Ports and processes of the tests (and benches) that start `parda serve` as a child. */
import fs from 'node:fs';
import net from 'node:net';

/** A loopback port free at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

/** The process ids whose parent is `pid` (node's cluster workers of a primary). */
export function childrenOf(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
        // Fields after the command name, which is in parentheses and may hold spaces.
        const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
        return ppid === pid;
      } catch {
        return false; // the process ended while we looked
      }
    })
    .map(Number);
}

/** True while `pid` is a live process (not gone, not a zombie waiting to be reaped). */
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** The first value `probe` gives (a throw counts as none yet), polled until `ms` have passed. */
export async function until<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  ms = 180_000,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
