/** Kubernetes' regex library (apiserver/pkg/cel/library/regex.go): find and findAll, with RE2 semantics. */
import { ArrayList, CelError, type Result } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';
import { compileRegex } from '../functions/regex.js';

function findAll(s: string, pattern: string, n: bigint): Result {
  const re = compileRegex(pattern);
  if (re instanceof CelError) return re;
  if (n === 0n) return new ArrayList([]);
  const out: string[] = [];
  const m = re.matcher(s);
  while ((n < 0n || BigInt(out.length) < n) && m.find()) out.push(m.group(0) ?? '');
  return new ArrayList(out);
}

/** The declarations of the regex library. */
export function regexFunctions(): FunctionDecl[] {
  return [
    fn(
      'find',
      overload('string_find_string', 'string.(string) -> string', (a) => {
        const re = compileRegex(a[1] as string);
        if (re instanceof CelError) return re;
        const m = re.matcher(a[0] as string);
        return m.find() ? (m.group(0) ?? '') : '';
      }),
    ),
    fn(
      'findAll',
      overload('string_find_all_string', 'string.(string) -> list(string)', (a) => findAll(a[0] as string, a[1] as string, -1n)),
      overload('string_find_all_string_int', 'string.(string, int) -> list(string)', (a) => findAll(a[0] as string, a[1] as string, a[2] as bigint)),
    ),
  ];
}
