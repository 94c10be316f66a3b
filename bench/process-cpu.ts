/**
 * CPU time of another process (user + system, all its threads, those that exited included), read
 * from Linux's /proc/PID/stat, so a figure can say what the server spent per request whatever the
 * load generator beside it did; and, finer, each thread's on-CPU time from its schedstat, for a
 * process's start. Elsewhere (no /proc) there is no reading and figures leave it out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';

let ticksPerSecond: number | undefined;

/** The kernel's clock ticks per second of /proc's CPU times (`getconf CLK_TCK`, 100 when unknown). */
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/**
 * Parses a /proc/PID/stat line into CPU seconds (utime + stime, fields 14 and 15). The command name
 * (field 2) is in parentheses and may hold spaces or parentheses itself, so fields are counted from
 * the last `)`.
 */
export function parseProcStat(line: string, ticks: number): number {
  const close = line.lastIndexOf(')');
  if (close < 0) throw new Error('not a /proc/PID/stat line');
  // After ") " come field 3 (state), 4, ... so utime (14) is at index 11 and stime (15) at 12.
  const fields = line.slice(close + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('no CPU times in the /proc/PID/stat line');
  return (utime + stime) / ticks;
}

/** CPU seconds process `pid` has used so far; undefined where /proc cannot tell. */
export function processCpuSeconds(pid: number): number | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'), clockTicks());
  } catch {
    return undefined;
  }
}

/**
 * The time a thread has spent on a CPU, in milliseconds, from a /proc/PID/task/TID/schedstat line
 * (its first field, in nanoseconds).
 */
export function parseSchedstat(line: string): number {
  const first = line.trim().split(' ')[0]!;
  const ns = Number(first);
  if (first === '' || !Number.isFinite(ns)) throw new Error('not a schedstat line');
  return ns / 1e6;
}

/**
 * On-CPU milliseconds of process `pid`: of its main thread, and of all its threads alive now
 * (/proc/PID/task/TID/schedstat, nanosecond resolution where /proc/PID/stat counts in ticks of
 * 10 ms); undefined where /proc cannot tell. A start's own cost is its main thread's: the helper
 * threads work beside it.
 */
export function threadCpuMs(pid: number): { main: number; all: number } | undefined {
  try {
    let all = 0;
    let main: number | undefined;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      let ms: number;
      try {
        ms = parseSchedstat(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8'));
      } catch {
        continue; // the thread ended between the listing and the read
      }
      all += ms;
      if (tid === String(pid)) main = ms;
    }
    return main === undefined ? undefined : { main, all };
  } catch {
    return undefined;
  }
}
