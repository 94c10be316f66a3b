/**
 * Resolving a JSON path such as `.spec.replicas` or `.spec['x.y']` in a schema
 * (apiextensions-apiserver/pkg/apiserver/schema/cel `ValidFieldPath`): the path of a rule's
 * `fieldPath` and of a selectable field. Each step names a property, or a key of a map
 * (`additionalProperties`).
 */
import type { JSONSchemaProps } from '../../types/apiextensions-v1.js';
import { additionalProperties, hasProperties, property } from './schema-access.js';

/** A resolved path: its first step (`metadata`, `spec`, ...), its canonical text, and the schema it reaches. */
export interface ResolvedFieldPath {
  readonly root: string;
  readonly text: string;
  readonly schema: JSONSchemaProps | undefined;
}

/** Splits on the delimiters `.`, `[`, `]` (returned as tokens), keeping single-quoted strings whole. */
function tokenize(path: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === "'") {
      let j = i + 1;
      while (j < path.length && !(path[j] === "'" && path[j - 1] !== '\\')) j++;
      // An unterminated quote runs to the end, as Go's scanner returns the rest at EOF.
      out.push(path.slice(i, Math.min(j + 1, path.length)));
      i = j + 1;
      continue;
    }
    const c = path[i]!;
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
      continue;
    }
    let j = i;
    while (j < path.length && path[j] !== '.' && path[j] !== '[' && path[j] !== ']') j++;
    out.push(path.slice(i, j));
    i = j;
  }
  return out;
}

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

function unescapeSingleQuote(s: string): string | Error {
  let bad: string | undefined;
  const out = s.replace(/\\[\s\S]/g, (m) => {
    const r = ESCAPES[m[1]!];
    if (r === undefined) bad ??= m;
    return r ?? '';
  });
  return bad === undefined ? out : new Error(`invalid escape char ${bad}`);
}

/** Go's `field.Path` text of a step: `.name` for a property, `[key]` for a map key. */
function stepText(text: string, name: string, named: boolean): string {
  if (!named) return `${text}[${name}]`;
  return text ? `${text}.${name}` : name;
}

/**
 * Resolves `jsonPath` in `schema`; the Error's message is Kubernetes' (`does not refer to a valid
 * field`, `expected [ or . but got: x`, ...). `allowArrayNotation` permits `['key']` steps.
 */
export function resolveFieldPath(jsonPath: string, root: JSONSchemaProps, allowArrayNotation = true): ResolvedFieldPath | Error {
  const tokens = tokenize(jsonPath);
  let schema: JSONSchemaProps | undefined = root;
  let text = '';
  let first = '';
  let pos = 0;
  const next = (): string | undefined => tokens[pos++];
  const step = (name: string): Error | undefined => {
    if (!schema) return new Error('does not refer to a valid field');
    let named: boolean;
    if (hasProperties(schema)) named = true;
    else if (additionalProperties(schema)) named = false;
    else return new Error('does not refer to a valid field');
    if (!text) first = name;
    text = stepText(text, name, named);
    if (named) {
      const p = property(schema, name);
      if (!p) return new Error('does not refer to a valid field');
      schema = p;
    } else schema = additionalProperties(schema)?.schema;
    return undefined;
  };
  for (let tok = next(); tok !== undefined; tok = next()) {
    if (tok === '[') {
      if (!allowArrayNotation) return new Error('array notation is not allowed');
      const quoted = next();
      if (quoted === undefined) return new Error('unexpected end of JSON path');
      if (quoted.length < 2 || quoted[0] !== "'" || quoted[quoted.length - 1] !== "'") return new Error(`expected single quoted string but got ${quoted}`);
      const name = unescapeSingleQuote(quoted.slice(1, -1));
      if (name instanceof Error) return new Error(`invalid string literal: ${name.message}`);
      const err = step(name);
      if (err) return err;
      const close = next();
      if (close === undefined) return new Error('unexpected end of JSON path');
      if (close !== ']') return new Error(`expected ] but got ${close}`);
    } else if (tok === '.') {
      const name = next();
      if (name === undefined) return new Error('unexpected end of JSON path');
      const err = step(name);
      if (err) return err;
    } else return new Error(`expected [ or . but got: ${tok}`);
  }
  return { root: first, text, schema };
}
