import { readdirSync, readFileSync } from 'node:fs';

/** Linux's /proc counts CPU time in USER_HZ ticks, 100 per second on every mainstream build. */
const TICKS_PER_SECOND = 100;

/** CPU seconds a process has used so far (Linux /proc). */
export function cpuSecondsOf(pid: number): number {
  // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

function postgresPids(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false; // exited meanwhile
      }
    })
    .map(Number);
}

/**
 * CPU seconds used so far by every Postgres process of this machine; null where /proc is not
 * there to ask. A backend that exits within a measured window takes its seconds with it: measure
 * over pooled connections.
 */
export function postgresCpuSeconds(): number | null {
  if (process.platform !== 'linux') return null;
  let seconds = 0;
  for (const pid of postgresPids()) {
    try {
      seconds += cpuSecondsOf(pid);
    } catch {
      // a backend that exited between listing and reading
    }
  }
  return seconds;
}

/** CPU seconds used so far by each of `pids` still running (a Postgres backend per pid). */
export function cpuSecondsByPid(pids: number[]): Map<number, number> {
  const seconds = new Map<number, number>();
  for (const pid of pids) {
    try {
      seconds.set(pid, cpuSecondsOf(pid));
    } catch {
      // exited meanwhile
    }
  }
  return seconds;
}

/** CPU seconds used between two readings of cpuSecondsByPid (a process new in `after` counts from zero). */
export function cpuSecondsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let seconds = 0;
  for (const [pid, total] of after) seconds += total - (before.get(pid) ?? 0);
  return seconds;
}
