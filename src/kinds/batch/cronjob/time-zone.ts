/**
 * Time zone names as Go's `time.LoadLocation` knows them, for CronJob `spec.timeZone` and the `TZ=`
 * prefix of a schedule. The names come from Node's ICU time zone database: the canonical zones of
 * `Intl.supportedValuesOf('timeZone')` (case-sensitive, as Go's lookup is), and the other IANA
 * names ICU accepts (`US/Eastern`, `Etc/UTC`, `Asia/Kolkata`, ...). ICU accepts those in any case
 * where Go needs the exact spelling; a canonical name in another case is refused, as in Go.
 */

let canonical: { exact: ReadonlySet<string>; lower: ReadonlySet<string> } | undefined;

function canonicalNames(): { exact: ReadonlySet<string>; lower: ReadonlySet<string> } {
  if (!canonical) {
    const names = Intl.supportedValuesOf('timeZone');
    canonical = { exact: new Set(names), lower: new Set(names.map((n) => n.toLowerCase())) };
  }
  return canonical;
}

function icuKnows(name: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/**
 * The error of Go's `time.LoadLocation(name)`, or undefined when the location loads (`""`, `UTC`
 * and `Local` always do).
 */
export function loadLocationError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  if (name.includes('..') || name.startsWith('/') || name.startsWith('\\')) return 'time: invalid location name';
  const names = canonicalNames();
  if (names.exact.has(name)) return undefined;
  // ICU's own offset and custom zones are no IANA file names.
  if (/^[A-Za-z0-9._+-]+(\/[A-Za-z0-9._+-]+)*$/.test(name) && !names.lower.has(name.toLowerCase()) && icuKnows(name)) return undefined;
  return `unknown time zone ${name}`;
}
