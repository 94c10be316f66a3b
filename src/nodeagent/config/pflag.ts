/**
 * Command-line parsing as spf13/pflag's `FlagSet.Parse` does it for kubelet: `--name=value`,
 * `--name value`, boolean flags bare (`--flag`) or with `=false`, shorthands (`-v 3`, `-v=3`,
 * `-v3`, `-h`), names normalized with `_` read as `-` (component-base's `WordSepNormalizeFunc`),
 * `--` ending the flags, positional arguments collected, and pflag's messages for every failure.
 */
import { goQuote } from '../../util/go-format.js';

/** One flag the parser knows. */
export interface FlagDefinition {
  /** Without dashes: `read-only-port`. */
  readonly name: string;
  /** One letter: `v` for `-v`. */
  readonly shorthand?: string;
  /** A flag that needs no value (pflag's `NoOptDefVal`): `--flag` means `--flag=<noValue>`. */
  readonly noValue?: string;
}

/** A command line pflag refuses; the message is pflag's. */
export class FlagParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagParseError';
  }
}

/** One flag as the command line gave it, in order. */
export interface FlagOccurrence<D extends FlagDefinition> {
  readonly flag: D;
  readonly value: string;
}

/** The flags found and the positional arguments. */
export interface ParsedFlags<D extends FlagDefinition> {
  readonly occurrences: readonly FlagOccurrence<D>[];
  readonly args: readonly string[];
}

/** The most arguments one command line may have (a bound on hostile input). */
export const MAX_ARGS = 10_000;

/** `cliflag.WordSepNormalizeFunc`: `_` is a word separator like `-`. */
export function normalizeFlagName(name: string): string {
  return name.includes('_') ? name.replaceAll('_', '-') : name;
}

/** Go's `%q` of one byte, as pflag prints an unknown shorthand: `'x'`. */
function quoteByte(c: string): string {
  if (c === "'") return "'\\''";
  const inner = goQuote(c).slice(1, -1);
  return `'${inner === '\\"' ? '"' : inner}'`;
}

/**
 * `set(flag, value)` receives each flag in order and may throw (a value the flag refuses);
 * parsing stops there as pflag's does.
 */
export function parseFlags<D extends FlagDefinition>(
  argv: readonly string[],
  byName: ReadonlyMap<string, D>,
  set: (flag: D, value: string) => void = () => {},
): ParsedFlags<D> {
  if (argv.length > MAX_ARGS) throw new FlagParseError(`too many arguments: ${argv.length} (at most ${MAX_ARGS})`);
  const byShorthand = new Map<string, D>();
  for (const d of byName.values()) if (d.shorthand) byShorthand.set(d.shorthand, d);
  const occurrences: FlagOccurrence<D>[] = [];
  const args: string[] = [];
  const take = (flag: D, value: string) => {
    set(flag, value);
    occurrences.push({ flag, value });
  };
  let rest = [...argv];
  while (rest.length > 0) {
    const s = rest.shift()!;
    if (s.length < 2 || s[0] !== '-') {
      args.push(s);
      continue;
    }
    if (s[1] === '-') {
      if (s.length === 2) {
        args.push(...rest);
        break;
      }
      rest = parseLong(s, rest, byName, take);
    } else {
      let shorthands = s.slice(1);
      while (shorthands.length > 0) [shorthands, rest] = parseShort(shorthands, rest, byShorthand, take);
    }
  }
  return { occurrences, args };
}

function parseLong<D extends FlagDefinition>(s: string, rest: string[], byName: ReadonlyMap<string, D>, take: (flag: D, value: string) => void): string[] {
  const body = s.slice(2);
  if (body[0] === '-' || body[0] === '=') throw new FlagParseError(`bad flag syntax: ${s}`);
  const eq = body.indexOf('=');
  const name = eq < 0 ? body : body.slice(0, eq);
  const flag = byName.get(normalizeFlagName(name));
  if (!flag) throw new FlagParseError(`unknown flag: --${name}`);
  if (eq >= 0) take(flag, body.slice(eq + 1));
  else if (flag.noValue !== undefined) take(flag, flag.noValue);
  else if (rest.length > 0) take(flag, rest.shift()!);
  else throw new FlagParseError(`flag needs an argument: ${s}`);
  return rest;
}

function parseShort<D extends FlagDefinition>(
  shorthands: string,
  rest: string[],
  byShorthand: ReadonlyMap<string, D>,
  take: (flag: D, value: string) => void,
): [string, string[]] {
  const c = shorthands[0]!;
  const flag = byShorthand.get(c);
  if (!flag) throw new FlagParseError(`unknown shorthand flag: ${quoteByte(c)} in -${shorthands}`);
  if (shorthands.length > 2 && shorthands[1] === '=') {
    take(flag, shorthands.slice(2));
    return ['', rest];
  }
  if (flag.noValue !== undefined) {
    take(flag, flag.noValue);
    return [shorthands.slice(1), rest];
  }
  if (shorthands.length > 1) {
    take(flag, shorthands.slice(1));
    return ['', rest];
  }
  if (rest.length > 0) {
    take(flag, rest[0]!);
    return ['', rest.slice(1)];
  }
  throw new FlagParseError(`flag needs an argument: ${quoteByte(c)} in -${shorthands}`);
}

/** pflag's text for a value a flag refuses: `invalid argument "x" for "--port" flag: <reason>`. */
export function invalidArgumentText(flag: FlagDefinition, value: string, reason: string): string {
  const name = flag.shorthand ? `-${flag.shorthand}, --${flag.name}` : `--${flag.name}`;
  return `invalid argument ${goQuote(value)} for ${goQuote(name)} flag: ${reason}`;
}
