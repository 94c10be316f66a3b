/**
 * The JSON format of component-base (logs/json: zap's JSON encoder through zapr): one object per
 * line, `ts` (milliseconds since the epoch, fractional), `caller` (`dir/file:line`), `msg`, then
 * `v` (the verbosity of an info message) and the key/value pairs; an error's text comes last as `err`.
 */

function jsonValue(value: unknown): unknown {
  if (value instanceof Error) return value.message;
  if (typeof value === 'bigint') return Number(value);
  if (value === undefined) return null;
  return value;
}

/** One JSON line (without its newline). `v` is undefined for errors. */
export function jsonLine(timeMs: number, caller: string, msg: string, v: number | undefined, kv: readonly unknown[], err?: unknown): string {
  let out = `{"ts":${timeMs},"caller":${JSON.stringify(caller)},"msg":${JSON.stringify(msg)}`;
  if (v !== undefined) out += `,"v":${v}`;
  for (let i = 0; i < kv.length; i += 2) {
    const key = typeof kv[i] === 'string' ? (kv[i] as string) : String(kv[i]);
    let text: string | undefined;
    try {
      text = i + 1 < kv.length ? JSON.stringify(jsonValue(kv[i + 1])) : undefined;
    } catch {
      text = JSON.stringify(String(kv[i + 1]));
    }
    out += `,${JSON.stringify(key)}:${text ?? 'null'}`;
  }
  if (err !== undefined && err !== null) out += `,"err":${JSON.stringify(err instanceof Error ? err.message : String(err))}`;
  return `${out}}`;
}
