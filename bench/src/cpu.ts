import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';

/** Linux's /proc counts CPU time in USER_HZ ticks, 100 per second on every mainstream build. */
const TICKS_PER_SECOND = 100;

/** CPU seconds a process has used so far, all its threads (Linux /proc, in 10 ms ticks). */
export function cpuSecondsOf(pid: number): number {
  // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/**
 * CPU seconds a single-threaded process (a Postgres backend) has run so far, to the nanosecond:
 * the scheduler's own count (`/proc/<pid>/schedstat`, its main thread), so a part costing a few
 * hundred ms is not measured in 10 ms ticks. Where the kernel does not keep it, the ticks.
 */
export function backendCpuSecondsOf(pid: number): number {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e9;
  } catch {
    return cpuSecondsOf(pid);
  }
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
      seconds += backendCpuSecondsOf(pid);
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
      seconds.set(pid, backendCpuSecondsOf(pid));
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

/** Where `timed` writes a CPU profile of each measured piece of work (BENCH_CPU_PROFILE_DIR), if anywhere. */
const PROFILE_DIR = process.env.BENCH_CPU_PROFILE_DIR;
let profiled = 0;

/**
 * Runs `work`: its result, wall seconds, and the CPU seconds Postgres (null off Linux) and this
 * process spent meanwhile. With BENCH_CPU_PROFILE_DIR set, this process's CPU profile of the work
 * alone (not the fixtures around it) is written there, one file per measured piece, numbered.
 */
export async function timed<T>(
  work: () => Promise<T>,
): Promise<{ result: T; seconds: number; postgresCpuSeconds: number | null; ownCpuSeconds: number }> {
  // The garbage of what came before (a fixture's drafts, another part's rows) is collected now,
  // not inside the measured work: a worker's job does not pay for the previous job's garbage.
  // (`pnpm bench` runs node with --expose-gc; without it, nothing is collected here.)
  (globalThis as { gc?: () => void }).gc?.();
  const profiler = PROFILE_DIR === undefined ? null : new Session();
  if (profiler !== null) {
    profiler.connect();
    await profiler.post('Profiler.enable');
    await profiler.post('Profiler.start');
  }
  const cpuBefore = postgresCpuSeconds();
  const ownBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await work();
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const own = process.cpuUsage(ownBefore);
  const cpuAfter = postgresCpuSeconds();
  if (profiler !== null) {
    const { profile } = await profiler.post('Profiler.stop');
    profiled += 1;
    writeFileSync(join(PROFILE_DIR!, `timed-${profiled}.cpuprofile`), JSON.stringify(profile));
    profiler.disconnect();
  }
  return {
    result,
    seconds,
    postgresCpuSeconds: cpuBefore === null || cpuAfter === null ? null : cpuAfter - cpuBefore,
    ownCpuSeconds: (own.user + own.system) / 1e6,
  };
}
