import { readdir, readFile } from 'node:fs/promises';

/** Linux reports a process's CPU time in /proc in clock ticks of 1/100 s (USER_HZ) on every architecture. */
const TICKS_PER_SECOND = 100;

/**
 * Two clock-tick fields of a /proc/<pid>/stat line added, in seconds; `first` counts from field 3,
 * the first after the command's parentheses (which may hold spaces).
 */
function tickSeconds(stat: string, first: number): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[first]) + Number(fields[first + 1])) / TICKS_PER_SECOND;
}

/** utime + stime of one /proc/<pid>/stat line, in seconds (fields 14 and 15). */
export function statSeconds(stat: string): number {
  return tickSeconds(stat, 11);
}

/**
 * cutime + cstime (fields 16 and 17): the CPU seconds of the process's children that have ended and
 * that it has waited for (a PostgreSQL backend's, once it exits, land in the postmaster's).
 */
export function reapedChildrenSeconds(stat: string): number {
  return tickSeconds(stat, 13);
}

/** CPU seconds a process has used so far (user + system), or null where /proc is not there. */
export async function processCpuSeconds(pid: number): Promise<number | null> {
  try {
    return statSeconds(await readFile(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

/**
 * CPU seconds used so far by every process named `name` (all PostgreSQL backends and helpers on this
 * machine, say) and by their children that have ended, or null where /proc is not there. A process
 * that ends between two reads would drop out of a plain sum (a pool closing a connection, an
 * autovacuum worker finishing) and make the difference negative; its time is still counted, in its
 * parent's reaped-children time (the postmaster's), so the sum only grows.
 */
export async function processesCpuSeconds(name: string): Promise<number | null> {
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  } catch {
    return null;
  }
  let total = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
    if (stat === null) continue;
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    if (comm === name) total += statSeconds(stat) + reapedChildrenSeconds(stat);
  }
  return total;
}
