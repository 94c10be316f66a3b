/**
 * klog's text format: the header `Lmmdd hh:mm:ss.uuuuuu threadid file:line] ` (severity letter,
 * month, day, time to the microsecond, the process id right-aligned in 7 columns), then either a
 * printf-style message or a structured one (`"message" key="value" n=1`).
 */
import { goQuote } from '../util/go-format.js';

/** klog's severities and their letters. */
export type Severity = 'I' | 'W' | 'E' | 'F';

const two = (n: number) => String(n).padStart(2, '0');

/** The header of one line; `utc` picks UTC over local time (klog uses local time). */
export function klogHeader(severity: Severity, timeMs: number, pid: number, file: string, utc: boolean): string {
  const d = new Date(Math.floor(timeMs));
  const micros = Math.floor((timeMs - Math.floor(timeMs / 1000) * 1000) * 1000);
  const [month, day, hour, minute, second] = utc
    ? [d.getUTCMonth() + 1, d.getUTCDate(), d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds()]
    : [d.getMonth() + 1, d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()];
  return `${severity}${two(month)}${two(day)} ${two(hour)}:${two(minute)}:${two(second)}.${String(micros).padStart(6, '0')} ${String(pid).padStart(7, ' ')} ${file}] `;
}

/** A value as klog's text format writes it after `key=`. */
export function klogValue(value: unknown): string {
  if (value instanceof Error) return goQuote(value.message);
  switch (typeof value) {
    case 'string':
      // A multi-line string is written as a block, each line indented by a tab.
      return value.includes('\n')
        ? `<\n${value
            .replace(/\n$/, '')
            .split('\n')
            .map((line) => `\t${line}\n`)
            .join('')} >`
        : goQuote(value);
    case 'number':
    case 'bigint':
    case 'boolean':
      return String(value);
    case 'undefined':
      return '<nil>';
    default:
      if (value === null) return '<nil>';
      try {
        return JSON.stringify(value) ?? '<nil>';
      } catch {
        return goQuote(String(value));
      }
  }
}

/** ` key=value` pairs; an odd last key gets `"(MISSING)"` as klog writes it. */
export function klogKeyValues(kv: readonly unknown[]): string {
  let out = '';
  for (let i = 0; i < kv.length; i += 2) {
    const key = typeof kv[i] === 'string' ? (kv[i] as string) : klogValue(kv[i]);
    out += ` ${key}=${i + 1 < kv.length ? klogValue(kv[i + 1]) : '"(MISSING)"'}`;
  }
  return out;
}

/** A structured message: `"msg" key=value ...`. */
export function klogStructured(msg: string, kv: readonly unknown[]): string {
  return `${goQuote(msg)}${klogKeyValues(kv)}`;
}
