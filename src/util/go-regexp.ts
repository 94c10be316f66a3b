/**
 * Go's `regexp` package (RE2 syntax, `regexp.Compile`'s Perl flags) for the patterns Kubernetes
 * matches with it, on re2js (a port of RE2/J): Go's syntax and error texts (`error parsing regexp:
 * missing closing ): ...`), and matching in time linear in the input, so a hostile value cannot
 * stall the server (`^(a+)+$` against `aaaa...!` would with a backtracking JavaScript RegExp).
 */
import { RE2JS } from 're2js';

/** A compiled Go regular expression. */
export interface GoRegexp {
  /** The pattern as written. */
  readonly source: string;
  /** Go's `MatchString`: whether the pattern matches anywhere in `s`. */
  test(s: string): boolean;
}

/** The result of {@link compileGoRegexp}: the regexp, or Go's error text. */
export type GoRegexpResult = { readonly ok: true; readonly regexp: GoRegexp } | { readonly ok: false; readonly error: string };

const cache = new Map<string, GoRegexpResult>();
const CACHE_LIMIT = 4096;

/**
 * Go's `regexp.Compile(pattern)`: the compiled regexp, or Go's error text (`error parsing regexp:
 * missing closing ): \`(a\``). Results are cached by pattern.
 */
export function compileGoRegexp(pattern: string): GoRegexpResult {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let result: GoRegexpResult;
  try {
    const re = RE2JS.compile(pattern);
    result = { ok: true, regexp: { source: pattern, test: (s) => re.matcher(s).find() } };
  } catch (e) {
    result = { ok: false, error: goErrorText(e, pattern) };
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, result);
  return result;
}

/** Errors whose expression Go gives as the whole pattern in the error as its expression (`syntax.Error.Expr` is the whole regexp there). */
const WHOLE_PATTERN_ERRORS = new Set(['expression nests too deeply', 'expression too large']);

/**
 * Go's `syntax.Error` text: `error parsing regexp: <code>: \`<expr>\``, the expression always
 * shown (empty for a trailing backslash). re2js leaves it out when it has none to show.
 */
function goErrorText(e: unknown, pattern: string): string {
  const x = e as { error?: unknown; input?: unknown; message?: unknown };
  if (typeof x.error !== 'string') return e instanceof Error ? e.message : String(e);
  const expr = typeof x.input === 'string' ? x.input : WHOLE_PATTERN_ERRORS.has(x.error) ? pattern : '';
  return `error parsing regexp: ${x.error}: \`${expr}\``;
}
