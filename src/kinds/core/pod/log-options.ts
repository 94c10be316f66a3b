/**
 * `PodLogOptions` from the query of `pods/{name}/log`, read as Kubernetes' parameter codec reads
 * them, and `ValidatePodLogOptions` (pkg/apis/core/validation) with its messages.
 */
import { badRequest } from '../../../machinery/errors.js';
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { paramBool, paramInt64, paramString } from '../../../machinery/parameter-codec.js';
import { goQuote } from '../../../util/go-format.js';

/** The options of a log request (core/v1 `PodLogOptions`). */
export interface PodLogOptions {
  container?: string;
  follow?: boolean;
  previous?: boolean;
  sinceSeconds?: number;
  /** RFC 3339 in UTC, whole seconds, as kube-apiserver passes it on. */
  sinceTime?: string;
  timestamps?: boolean;
  tailLines?: number;
  limitBytes?: number;
  insecureSkipTLSVerifyBackend?: boolean;
  stream?: string;
}

const RFC3339 = '2006-01-02T15:04:05Z07:00';

/** One element of Go's RFC 3339 layout: what it is called in errors and how many digits it takes. */
const LAYOUT: readonly (readonly [name: string, digits: number])[] = [
  ['2006', 4],
  ['-', 0],
  ['01', 2],
  ['-', 0],
  ['02', 2],
  ['T', 0],
  ['15', 2],
  [':', 0],
  ['04', 2],
  [':', 0],
  ['05', 2],
];

/** Go's `time.Parse(time.RFC3339, s)` error text, or the instant in milliseconds. */
function parseRfc3339(s: string): number {
  const fail = (why: string) => badRequest(`parsing time ${goQuote(s)}${why}`);
  const cannot = (rest: string, elem: string) => fail(` as ${goQuote(RFC3339)}: cannot parse ${goQuote(rest)} as ${goQuote(elem)}`);
  let rest = s;
  const numbers: number[] = [];
  for (const [name, digits] of LAYOUT) {
    if (digits === 0) {
      if (!rest.startsWith(name)) throw cannot(rest, name);
      rest = rest.slice(name.length);
      continue;
    }
    const m = new RegExp(`^\\d{${digits}}`).exec(rest);
    if (!m) throw cannot(rest, name);
    numbers.push(Number(m[0]));
    rest = rest.slice(digits);
  }
  const [year, month, day, hour, minute, second] = numbers as [number, number, number, number, number, number];
  const fraction = /^[.,]\d+/.exec(rest);
  if (fraction) rest = rest.slice(fraction[0].length);
  let offsetMinutes = 0;
  if (rest.startsWith('Z')) rest = rest.slice(1);
  else {
    const m = /^([+-])(\d{2}):(\d{2})/.exec(rest);
    if (!m) throw cannot(rest, 'Z07:00');
    offsetMinutes = (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
    rest = rest.slice(m[0].length);
  }
  if (rest !== '') throw fail(`: extra text: ${goQuote(rest)}`);
  if (month < 1 || month > 12) throw fail(': month out of range');
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day < 1 || day > daysInMonth) throw fail(': day out of range');
  if (hour > 23) throw fail(': hour out of range');
  if (minute > 59) throw fail(': minute out of range');
  if (second > 59) throw fail(': second out of range');
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, second, 0);
  return utc.getTime() - offsetMinutes * 60_000;
}

/** `metav1.Time.UnmarshalQueryParameter`: empty and `null` are no time. */
function paramTime(values: readonly string[] | undefined): string | undefined {
  const v = values?.[0];
  if (v === undefined || v === '' || v === 'null') return undefined;
  return new Date(parseRfc3339(v)).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** The log options of a query; 400 with Go's text for a malformed number or time. */
export function decodePodLogOptions(params: Readonly<Record<string, readonly string[]>>): PodLogOptions {
  const out: PodLogOptions = {
    container: paramString(params.container),
    follow: paramBool(params.follow),
    previous: paramBool(params.previous),
    sinceSeconds: paramInt64(params.sinceSeconds),
    sinceTime: paramTime(params.sinceTime),
    timestamps: paramBool(params.timestamps),
    tailLines: paramInt64(params.tailLines),
    limitBytes: paramInt64(params.limitBytes),
    insecureSkipTLSVerifyBackend: paramBool(params.insecureSkipTLSVerifyBackend),
    stream: paramString(params.stream),
  };
  for (const key of Object.keys(out) as (keyof PodLogOptions)[]) if (out[key] === undefined) delete out[key];
  return out;
}

const LOG_STREAMS = ['Stdout', 'Stderr', 'All'];

/** `ValidatePodLogOptions`: every rule, in Kubernetes' order. */
export function validatePodLogOptions(opts: PodLogOptions): FieldError[] {
  const errs: FieldError[] = [];
  if (opts.tailLines !== undefined && opts.tailLines < 0) errs.push(fieldError.invalid('tailLines', opts.tailLines, 'must be greater than or equal to 0'));
  if (opts.limitBytes !== undefined && opts.limitBytes < 1) errs.push(fieldError.invalid('limitBytes', opts.limitBytes, 'must be greater than 0'));
  if (opts.sinceSeconds !== undefined && opts.sinceTime !== undefined) {
    errs.push(fieldError.forbidden('', 'at most one of `sinceTime` or `sinceSeconds` may be specified'));
  } else if (opts.sinceSeconds !== undefined && opts.sinceSeconds < 1) {
    errs.push(fieldError.invalid('sinceSeconds', opts.sinceSeconds, 'must be greater than 0'));
  }
  if (opts.stream !== undefined) {
    if (!LOG_STREAMS.includes(opts.stream)) errs.push(fieldError.notSupported('stream', opts.stream, LOG_STREAMS));
    if (opts.stream !== 'All' && opts.tailLines !== undefined) {
      errs.push(fieldError.forbidden('', '`tailLines` and specific `stream` are mutually exclusive for now'));
    }
  }
  return errs;
}

/** The query kube-apiserver sends to the agent's `/containerLogs` (`url.Values.Encode`: keys sorted). */
export function containerLogsQuery(opts: PodLogOptions): string {
  const params: [string, string][] = [];
  if (opts.follow) params.push(['follow', 'true']);
  if (opts.previous) params.push(['previous', 'true']);
  if (opts.timestamps) params.push(['timestamps', 'true']);
  if (opts.sinceSeconds !== undefined) params.push(['sinceSeconds', String(opts.sinceSeconds)]);
  if (opts.sinceTime !== undefined) params.push(['sinceTime', opts.sinceTime]);
  if (opts.tailLines !== undefined) params.push(['tailLines', String(opts.tailLines)]);
  if (opts.limitBytes !== undefined) params.push(['limitBytes', String(opts.limitBytes)]);
  if (opts.stream !== undefined) params.push(['stream', opts.stream]);
  params.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return new URLSearchParams(params).toString();
}
