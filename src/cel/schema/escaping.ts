/**
 * Property names as CEL identifiers (apiserver/pkg/cel/escaping.go Escape): a CEL keyword `k`
 * becomes `__k__`, `__` becomes `__underscores__`, and `.`, `-`, `/` become `__dot__`, `__dash__`,
 * `__slash__`. A name with any other character, or starting with a digit, has no CEL name and is
 * not visible to rules.
 */

/** Kubernetes' `celReservedSymbols`: words no CEL identifier may be (apiserver/pkg/cel/escaping.go). */
export const CEL_RESERVED_SYMBOLS: ReadonlySet<string> = new Set([
  'true',
  'false',
  'null',
  'in',
  'as',
  'break',
  'const',
  'continue',
  'else',
  'for',
  'function',
  'if',
  'import',
  'let',
  'loop',
  'package',
  'namespace',
  'return',
  'var',
  'void',
  'while',
]);

/** The CEL identifier of a property name, or undefined when it has none. */
export function escapePropertyName(name: string): string | undefined {
  if (name.length === 0 || (name[0]! >= '0' && name[0]! <= '9')) return undefined;
  if (CEL_RESERVED_SYMBOLS.has(name)) return `__${name}__`;
  if (/^[a-zA-Z0-9_]*$/.test(name) && !name.includes('__')) return name;
  if (!/^[a-zA-Z0-9_./-]*$/.test(name)) return undefined;
  return name.replace(/__|[./-]/g, (m) => (m === '__' ? '__underscores__' : m === '.' ? '__dot__' : m === '-' ? '__dash__' : '__slash__'));
}

/** The property name of an escaped CEL identifier (apiserver/pkg/cel Unescape), or undefined when the escapes are invalid. */
export function unescapePropertyName(escaped: string): string | undefined {
  let ok = true;
  const out = escaped.replace(/__[^_]+__/g, (m) => {
    const inner = m.slice(2, -2);
    switch (inner) {
      case 'underscores':
        return '__';
      case 'dot':
        return '.';
      case 'dash':
        return '-';
      case 'slash':
        return '/';
      default:
        if (CEL_RESERVED_SYMBOLS.has(inner)) {
          if (m.length !== escaped.length) ok = false;
          return inner;
        }
        ok = false;
        return '';
    }
  });
  return ok ? out : undefined;
}

/**
 * The declared name a field selection of a CEL keyword reads (`self.namespace` reads the property
 * declared as `__namespace__`), as Kubernetes' type provider recognizes keywords as field names
 * (apiserver/pkg/cel/types.go `recognizeKeywordAsFieldName`); undefined for other names.
 */
export function keywordFieldName(name: string): string | undefined {
  return CEL_RESERVED_SYMBOLS.has(name) ? `__${name}__` : undefined;
}
