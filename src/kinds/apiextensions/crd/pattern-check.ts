/**
 * memkube's approximation of Go's `regexp.Compile` verdict on a schema `pattern`, used when no
 * exact RE2 checker is passed in (`CrdValidationHooks.checkPattern`). It finds the RE2 refusals
 * real schemas meet (lookarounds, backreferences, possessive quantifiers), with Go's messages, and
 * otherwise asks JavaScript's parser, reporting its refusals under the nearest Go message.
 */

const PERL_GROUP = /\(\?(<[=!]|[=!>])/;
const BACKREF = /\\[1-9kgpP]?/;

function goError(code: string, expr: string): string {
  return `error parsing regexp: ${code}: \`${expr}\``;
}

/** Go's error text for `pattern`, or undefined when Go would compile it (as far as memkube can tell). */
export function approximateGoRegexpError(pattern: string): string | undefined {
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (!inClass && /[1-9]/.test(next)) return goError('invalid escape sequence', `\\${next}`);
      if (next === '') return goError('trailing backslash at end of expression', '');
      i++;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      continue;
    }
    if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === ']') i++;
      continue;
    }
    if (c === '(') {
      const m = PERL_GROUP.exec(pattern.slice(i, i + 4));
      if (m && m.index === 0) return goError('invalid or unsupported Perl syntax', pattern.slice(i, i + 2 + m[1]!.length));
    }
    if ((c === '+' || c === '*' || c === '?') && pattern[i + 1] === '+') return goError('invalid nested repetition operator', `${c}+`);
  }
  try {
    new RegExp(pattern);
  } catch {
    if (BACKREF.test(pattern)) return goError('invalid escape sequence', pattern);
    const open = (pattern.match(/(?<!\\)\(/g) ?? []).length;
    const close = (pattern.match(/(?<!\\)\)/g) ?? []).length;
    if (open > close) return goError('missing closing )', pattern);
    if (close > open) return goError('unexpected )', pattern);
    if (inClass) return goError('missing closing ]', pattern.slice(pattern.lastIndexOf('[')));
    return goError('missing argument to repetition operator', pattern);
  }
  if (inClass) return goError('missing closing ]', pattern.slice(pattern.lastIndexOf('[')));
  return undefined;
}
