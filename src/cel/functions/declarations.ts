/**
 * Function declarations: each function's overloads, their signatures for the checker and their
 * implementations for the interpreter (cel-go common/decls). Tables are written with `overload()`,
 * whose signature notation is `(int, int) -> int` for a global function and
 * `string.(string) -> bool` for a member function.
 */
import { parseType } from '../types/parse-type.js';
import type { CelType } from '../types/types.js';
import type { Result, Value } from '../values/values.js';

/** An implementation: evaluated arguments (receiver first) in, a value or an error out. */
export type Impl = (args: Value[]) => Result;

/** One overload of a function. */
export interface Overload {
  readonly id: string;
  /** True for a member (receiver) overload; then `args[0]` is the receiver. */
  readonly member: boolean;
  readonly args: readonly CelType[];
  readonly result: CelType;
  /** The type parameters the signature mentions. */
  readonly typeParams: readonly string[];
  readonly impl: Impl | undefined;
}

/** A function and its overloads. */
export interface FunctionDecl {
  readonly name: string;
  readonly overloads: readonly Overload[];
}

function typeParamsOf(types: readonly CelType[]): string[] {
  const out = new Set<string>();
  const visit = (t: CelType): void => {
    if (t.kind === 'typeparam') out.add(t.name);
    t.params.forEach(visit);
  };
  types.forEach(visit);
  return [...out];
}

/** Declares an overload from its id, signature notation and implementation. */
export function overload(id: string, signature: string, impl?: Impl): Overload {
  const m = /^(?:(.+?)\.)?\((.*)\)\s*->\s*(.+)$/.exec(signature.trim());
  if (!m) throw new Error(`bad signature: ${signature}`);
  const [, receiver, argText = '', resultText = ''] = m;
  const splitArgs = (text: string): string[] => {
    const parts: string[] = [];
    let depth = 0;
    let cur = '';
    for (const ch of text) {
      if (ch === '(') depth++;
      if (ch === ')') depth--;
      if (ch === ',' && depth === 0) {
        parts.push(cur);
        cur = '';
      } else cur += ch;
    }
    if (cur.trim() !== '') parts.push(cur);
    return parts;
  };
  const args = [...(receiver ? [receiver] : []), ...splitArgs(argText)].map(parseType);
  const result = parseType(resultText);
  return { id, member: receiver !== undefined, args, result, typeParams: typeParamsOf([...args, result]), impl };
}

/** Declares a function. */
export function fn(name: string, ...overloads: Overload[]): FunctionDecl {
  return { name, overloads };
}

/** The functions of an environment, by name; declaring a name again adds overloads to it. */
export class FunctionTable {
  private readonly byName = new Map<string, FunctionDecl>();
  private readonly byOverload = new Map<string, Overload>();

  add(...decls: FunctionDecl[]): this {
    for (const d of decls) {
      const prev = this.byName.get(d.name);
      this.byName.set(d.name, { name: d.name, overloads: [...(prev?.overloads ?? []), ...d.overloads] });
      for (const o of d.overloads) this.byOverload.set(o.id, o);
    }
    return this;
  }
  lookup(name: string): FunctionDecl | undefined {
    return this.byName.get(name);
  }
  overload(id: string): Overload | undefined {
    return this.byOverload.get(id);
  }
}
