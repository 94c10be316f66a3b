/**
 * Regular expressions with Go's RE2 syntax and linear-time matching (re2js), so a hostile pattern
 * cannot stall the evaluator. Compiled patterns are cached: a rule's pattern is usually a constant.
 */
import { RE2JS } from 're2js';
import { CelError } from '../values/values.js';

const cache = new Map<string, RE2JS | CelError>();
const CACHE_LIMIT = 500;

/** The compiled pattern, or Go's `error parsing regexp: ...` message as an error. */
export function compileRegex(pattern: string): RE2JS | CelError {
  const hit = cache.get(pattern);
  if (hit) return hit;
  let out: RE2JS | CelError;
  try {
    out = RE2JS.compile(pattern);
  } catch (e) {
    out = new CelError(e instanceof Error ? e.message : String(e));
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, out);
  return out;
}
