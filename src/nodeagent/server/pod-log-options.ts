/**
 * The query of `/containerLogs` as kubelet reads it: `v1.PodLogOptions` decoded by the parameter
 * codec (booleans false only for `0`, `f`, `false` in any case; integers as Go's `ParseInt`;
 * `sinceTime` RFC3339), the old `tail` parameter (`all` meaning every line), then
 * `ValidatePodLogOptions`.
 */
import { parseRfc3339 } from './cri-log-file.js';

/** The log options kubelet uses. */
export interface PodLogOptions {
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  tailLines?: number;
  limitBytes?: number;
  sinceSeconds?: number;
  /** `sinceTime` in nanoseconds since the epoch. */
  sinceTimeNs?: bigint;
  stream?: string;
}

/** Why a query was refused: `decode` answers 400, `invalid` 422. */
export type PodLogOptionsError = 'decode' | 'invalid';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function goBool(value: string): boolean {
  return !(value === '0' || value.toLowerCase() === 'f' || value.toLowerCase() === 'false');
}

function goInt64(value: string): number | undefined {
  if (!/^[+-]?\d+$/.test(value)) return undefined;
  const n = BigInt(value);
  if (n < INT64_MIN || n > INT64_MAX) return undefined;
  return Number(n);
}

/** The options of a query, or why they cannot be had. */
export function podLogOptionsFromQuery(search: URLSearchParams): PodLogOptions | PodLogOptionsError {
  const query = new URLSearchParams(search);
  const tail = query.get('tail');
  if (tail) {
    query.set('tailLines', tail);
    if (tail === 'all') query.delete('tailLines');
  }
  const first = (name: string) => (query.has(name) ? query.getAll(name)[0]! : undefined);
  const options: PodLogOptions = { follow: false, previous: false, timestamps: false };
  for (const name of ['follow', 'previous', 'timestamps'] as const) {
    const value = first(name);
    if (value !== undefined) options[name] = goBool(value);
  }
  for (const name of ['tailLines', 'limitBytes', 'sinceSeconds'] as const) {
    const value = first(name);
    if (value === undefined) continue;
    const n = goInt64(value);
    if (n === undefined) return 'decode';
    options[name] = n;
  }
  const sinceTime = first('sinceTime');
  let sinceTimeGiven = false;
  if (sinceTime !== undefined) {
    sinceTimeGiven = true;
    // metav1.Time's query form: empty or `null` is the zero time.
    if (sinceTime !== '' && sinceTime !== 'null') {
      const parsed = parseRfc3339(sinceTime);
      if (!parsed) return 'decode';
      options.sinceTimeNs = parsed.ns;
    }
  }
  const stream = first('stream');
  if (stream !== undefined) options.stream = stream;

  if (options.tailLines !== undefined && options.tailLines < 0) return 'invalid';
  if (options.limitBytes !== undefined && options.limitBytes < 1) return 'invalid';
  if (options.sinceSeconds !== undefined && sinceTimeGiven) return 'invalid';
  if (options.sinceSeconds !== undefined && options.sinceSeconds < 1) return 'invalid';
  return options;
}
