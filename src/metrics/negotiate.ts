/**
 * Content negotiation of a metrics endpoint, as promhttp does for Kubernetes' components:
 * expfmt's NegotiateIncludingOpenMetrics over the Accept header (parsed and ordered as goautoneg
 * does), the `escaping` parameter echoed into the answer's content type, and gzip chosen from
 * Accept-Encoding as promhttp's negotiateEncodingWriter does. Nothing here throws: a malformed
 * header is read as far as it makes sense and otherwise answered with the text format.
 */

/** The exposition formats a metrics endpoint writes. */
export type ExpositionFormat = 'protobuf' | 'openmetrics-1.0.0' | 'openmetrics-0.0.1' | 'text';

/** What negotiation chose: the body's format and the exact Content-Type to answer with. */
export interface NegotiatedFormat {
  readonly format: ExpositionFormat;
  readonly contentType: string;
}

/** One clause of an Accept header. */
export interface AcceptClause {
  readonly type: string;
  readonly subType: string;
  readonly q: number;
  readonly params: Readonly<Record<string, string>>;
}

const CONTENT_TYPES: Record<ExpositionFormat, string> = {
  protobuf: 'application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily; encoding=delimited',
  'openmetrics-1.0.0': 'application/openmetrics-text; version=1.0.0; charset=utf-8',
  'openmetrics-0.0.1': 'application/openmetrics-text; version=0.0.1; charset=utf-8',
  text: 'text/plain; version=0.0.4; charset=utf-8',
};

/** The name-escaping schemes a client may ask for; `underscores` is client_golang's default. */
const ESCAPING_SCHEMES = new Set(['allow-utf-8', 'underscores', 'dots', 'values']);

/** Accept headers longer than this are read only this far (a real scraper's is ~200 characters). */
const MAX_ACCEPT_LENGTH = 8192;

/**
 * The format and Content-Type for an Accept header (expfmt.NegotiateIncludingOpenMetrics of
 * prometheus/common v0.66, which Kubernetes v1.36 uses): clauses in preference order; the first that
 * names the protobuf MetricFamily delimited encoding, `text/plain` (version 0.0.4 or none) or
 * `application/openmetrics-text` (version 1.0.0, 0.0.1 or none) wins; wildcards and anything else
 * fall through to the text format.
 */
export function negotiateFormat(accept: string | undefined): NegotiatedFormat {
  let escaping = 'underscores';
  let chosen: ExpositionFormat = 'text';
  for (const clause of parseAccept(accept ?? '')) {
    // expfmt takes the escaping scheme of every clause it reads, up to the one it picks.
    const scheme = clause.params.escaping;
    if (scheme !== undefined && ESCAPING_SCHEMES.has(scheme)) escaping = scheme;
    const match = formatOf(clause);
    if (match) {
      chosen = match;
      break;
    }
  }
  return { format: chosen, contentType: `${CONTENT_TYPES[chosen]}; escaping=${escaping}` };
}

function formatOf(c: AcceptClause): ExpositionFormat | undefined {
  const version = c.params.version ?? '';
  const mediaType = `${c.type}/${c.subType}`;
  // Only the delimited protobuf encoding is written here; the protobuf text encodings that expfmt
  // also offers are passed over to the next clause.
  if (mediaType === 'application/vnd.google.protobuf' && c.params.proto === 'io.prometheus.client.MetricFamily' && c.params.encoding === 'delimited')
    return 'protobuf';
  if (mediaType === 'text/plain' && (version === '0.0.4' || version === '')) return 'text';
  if (mediaType === 'application/openmetrics-text') {
    if (version === '1.0.0') return 'openmetrics-1.0.0';
    if (version === '0.0.1' || version === '') return 'openmetrics-0.0.1';
  }
  return undefined;
}

/**
 * An Accept header's clauses, most preferred first, as goautoneg's ParseAccept reads them: split
 * at commas and semicolons, a media range without a slash dropped (unless it is `*`), `q` parsed as
 * a float (0 when it is not one), other parameters kept; then ordered by its comparison (higher q
 * first, then concrete types before wildcards).
 */
export function parseAccept(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const part of header.slice(0, MAX_ACCEPT_LENGTH).split(',')) {
    const [range = '', ...paramParts] = trimSpaces(part).split(';');
    const slash = range.split('/');
    const type = trimSpaces(slash[0] ?? '');
    let subType: string;
    if (slash.length === 1 && type === '*') subType = '*';
    else if (slash.length === 2) subType = trimSpaces(slash[1]!);
    else continue;
    let q = 1;
    const params: Record<string, string> = {};
    for (const param of paramParts) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = trimSpaces(param.slice(0, eq));
      const value = param.slice(eq + 1);
      if (token === 'q') q = parseQuality(value);
      else params[token] = trimSpaces(value);
    }
    clauses.push({ type, subType, q, params });
  }
  return orderClauses(clauses);
}

/** goautoneg's "less": a clause goes first if its q is higher, or its type or subtype is concrete where the other's is `*`. */
function before(a: AcceptClause, b: AcceptClause): boolean {
  if (a.q > b.q) return true;
  if (a.type !== '*' && b.type === '*') return true;
  if (a.subType !== '*' && b.subType === '*') return true;
  return false;
}

/**
 * Go's sort.Sort with that comparison: for up to 12 clauses it is an insertion sort, which this
 * repeats step for step (the comparison is not a strict order, so the algorithm decides ties).
 * Longer headers, which no scraper sends, are ordered by a stable sort instead.
 */
function orderClauses(clauses: AcceptClause[]): AcceptClause[] {
  if (clauses.length > 12) return clauses.sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && before(clauses[j]!, clauses[j - 1]!); j--) {
      [clauses[j], clauses[j - 1]] = [clauses[j - 1]!, clauses[j]!];
    }
  }
  return clauses;
}

/** Go's strings.Trim(s, " "): spaces only, not tabs. */
function trimSpaces(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && s[start] === ' ') start++;
  while (end > start && s[end - 1] === ' ') end--;
  return s.slice(start, end);
}

/** strconv.ParseFloat(s, 32) as goautoneg uses it: the value, or 0 when it is not a float. */
function parseQuality(s: string): number {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Math.fround(Number(s));
  if (/^[+-]?(inf|infinity)$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  return 0;
}

/**
 * The content coding for an Accept-Encoding header, as promhttp offers them (identity, then gzip):
 * the first offer matched by a strictly better q wins, `*` matching any offer; with nothing
 * acceptable (the best match has q=0) promhttp falls back to identity, and so does this.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): 'gzip' | 'identity' {
  const specs = parseAcceptEncoding(acceptEncoding ?? '');
  let best: 'gzip' | 'identity' = 'identity';
  let bestQ = -1;
  for (const offer of ['identity', 'gzip'] as const) {
    for (const spec of specs) {
      if (spec.q > bestQ && (spec.value === '*' || spec.value === offer)) {
        bestQ = spec.q;
        best = offer;
      }
    }
  }
  return bestQ === 0 ? 'identity' : best;
}

/** gddo's header.ParseAccept for Accept-Encoding: `token[;q=x]` items; a malformed item ends the header. */
function parseAcceptEncoding(header: string): Array<{ value: string; q: number }> {
  const specs: Array<{ value: string; q: number }> = [];
  let s = header.slice(0, MAX_ACCEPT_LENGTH);
  for (;;) {
    const token = /^[!#$%&'*+\-.^_`|~0-9A-Za-z/]*/.exec(s)![0];
    if (token === '') return specs;
    s = skipSpace(s.slice(token.length));
    let q = 1;
    if (s.startsWith(';')) {
      s = skipSpace(s.slice(1));
      if (!s.startsWith('q=')) return specs;
      const quality = /^([01])(?:\.(\d*))?/.exec(s.slice(2));
      if (!quality) return specs;
      const digits = quality[2] ?? '';
      q = Number(quality[1]) + (digits === '' ? 0 : Number(digits) / 10 ** digits.length);
      s = s.slice(2 + quality[0].length);
    }
    specs.push({ value: token, q });
    s = skipSpace(s);
    if (!s.startsWith(',')) return specs;
    s = skipSpace(s.slice(1));
  }
}

function skipSpace(s: string): string {
  return s.replace(/^[ \t\r\n]+/, '');
}
