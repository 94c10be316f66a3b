/**
 * CPU time of another process (user + system, all its threads, those that exited included), read
 * from Linux's /proc/PID/stat, so a figure can say what the server spent per request whatever the
 * load generator beside it did. Elsewhere (no /proc) there is no reading and figures leave it out.
 */
import { readFileSync } from 'node:fs';
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
