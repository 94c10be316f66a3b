/**
 * `metav1.MicroTime` as Kubernetes decodes it: `time.Parse` with the layout
 * `2006-01-02T15:04:05.000000Z07:00` (exactly six fraction digits), re-serialized in UTC.
 */
import { badRequest } from '../../machinery/errors.js';

const LAYOUT = '2006-01-02T15:04:05.000000Z07:00';
const HEAD = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/;

/** The Go parse error of a MicroTime string, or the value normalized to UTC. */
export function parseMicroTime(value: string): { value: string } | { error: string } {
  const fail = (rest: string, elem: string) => ({
    error: `parsing time ${JSON.stringify(value)} as ${JSON.stringify(LAYOUT)}: cannot parse ${JSON.stringify(rest)} as ${JSON.stringify(elem)}`,
  });
  const head = HEAD.exec(value);
  if (!head) return fail(value, '2006');
  let rest = value.slice(head[0].length);
  const frac = /^[.,]\d{6}/.exec(rest);
  if (!frac) return fail(rest, '.000000');
  rest = rest.slice(7);
  const zone = /^(?:Z|([+-])(\d{2}):(\d{2}))$/.exec(rest);
  if (!zone) return fail(rest, 'Z07:00');
  const [, y, mo, d, h, mi, s] = head;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  if (Number(y) < 100) ms = new Date(ms).setUTCFullYear(Number(y));
  if (zone[1]) ms -= (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) * 60_000;
  const iso = new Date(ms).toISOString();
  return { value: `${iso.slice(0, 19)}.${frac[0].slice(1)}Z` };
}

/**
 * Checks and normalizes the MicroTime fields of `obj` (`paths` relative to it); a malformed one is
 * the `400` Kubernetes' decoder answers.
 */
export function normalizeMicroTimes(obj: Record<string, unknown> | undefined, fields: readonly string[], kind: string, version: string): void {
  if (!obj) return;
  for (const f of fields) {
    const v = obj[f];
    if (typeof v !== 'string') continue;
    const parsed = parseMicroTime(v);
    if ('error' in parsed) throw badRequest(`${kind} in version "${version}" cannot be handled as a ${kind}: ${parsed.error}`);
    obj[f] = parsed.value;
  }
}
