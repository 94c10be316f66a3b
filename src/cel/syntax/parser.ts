/**
 * The CEL parser: a recursive-descent reading of cel-spec's grammar that builds cel-go's tree
 * (parser/parser.go), expands macros, and reports errors with cel-go's messages and positions.
 *
 * Syntax errors: cel-go's come from ANTLR's error recovery. This parser reports the first one with
 * ANTLR's wording (`mismatched input`, `extraneous input`, `missing`, `token recognition error`)
 * and stops; where ANTLR would recover and report more, only the first is shown.
 */
import type { Expr, MapEntry, ParsedExpr, StructField } from './ast.js';
import { ExprFactory } from './factory.js';
import type { Issue } from './issues.js';
import { lex, type Token } from './lexer.js';
import { expandMacro, isMacroError } from './macros.js';
import { unescapeBytes, unescapeString } from './unescape.js';
import { CelUint, INT64_MAX, INT64_MIN, UINT64_MAX } from '../values/values.js';

/** Parser limits, with cel-go's defaults. */
export interface ParseOptions {
  /** cel-go MaxRecursionDepth: 250. */
  readonly maxRecursionDepth?: number;
  /** cel-go ExpressionSizeCodePointLimit: 100,000. */
  readonly expressionSizeCodePointLimit?: number;
}

/** A parse: the tree when there were no errors, and the errors. */
export interface ParseResult {
  readonly parsed: ParsedExpr | undefined;
  readonly issues: Issue[];
}

const EXPR_START = "{'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const MAP_START = "{'[', '{', '}', '(', '.', ',', '-', '!', '?', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}";
const RESERVED = new Set([
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
const RELATIONS: Record<string, string> = { '<': '_<_', '<=': '_<=_', '>=': '_>=_', '>': '_>_', '==': '_==_', '!=': '_!=_', in: '@in' };

/** Thrown to stop at the first syntax error; the error is already recorded. */
class Stop extends Error {}

function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) i++;
    n++;
  }
  return n;
}

const canStartExpr = (t: Token): boolean =>
  t.kind === 'int' ||
  t.kind === 'uint' ||
  t.kind === 'float' ||
  t.kind === 'string' ||
  t.kind === 'bytes' ||
  t.kind === 'ident' ||
  (t.kind === 'kw' && t.text !== 'in') ||
  (t.kind === 'op' && ['[', '{', '(', '.', '-', '!'].includes(t.text));

class Parser {
  private pos = 0;
  private depth = 0;
  readonly f = new ExprFactory();
  readonly issues: Issue[] = [];

  constructor(
    private readonly tokens: Token[],
    private readonly maxDepth: number,
  ) {}

  private get tok(): Token {
    return this.tokens[this.pos]!;
  }
  private peek(n = 1): Token {
    return this.tokens[Math.min(this.pos + n, this.tokens.length - 1)]!;
  }
  private is(text: string): boolean {
    const t = this.tok;
    return (t.kind === 'op' || t.kind === 'kw') && t.text === text;
  }
  private advance(): Token {
    const t = this.tok;
    if (t.kind !== 'eof') this.pos++;
    return t;
  }
  private error(offset: number | undefined, message: string): void {
    this.issues.push({ offset, message });
  }
  private fail(offset: number | undefined, message: string): never {
    this.error(offset, message);
    throw new Stop();
  }
  private shown(t: Token): string {
    return t.kind === 'eof' ? '<EOF>' : t.text;
  }
  /** Requires `text` next: ANTLR says `missing` when the token after would fit, else `mismatched`. */
  private expect(text: string, expecting = `'${text}'`): Token {
    if (this.is(text)) return this.advance();
    const t = this.tok;
    const fitsAfter =
      t.kind === 'eof' ||
      (t.kind === 'op' && [')', ']', '}', ',', '.', '[', '+', '-', '*', '/', '%', '==', '!=', '<', '<=', '>', '>=', '&&', '||', '?', ':'].includes(t.text));
    if (fitsAfter && !expecting.startsWith('{')) this.fail(t.offset, `Syntax error: missing ${expecting} at '${this.shown(t)}'`);
    this.fail(t.offset, `Syntax error: mismatched input '${this.shown(t)}' expecting ${expecting}`);
  }
  private enter(offset: number, extra = 0): void {
    this.depth++;
    if (this.depth + extra > this.maxDepth) this.fail(undefined, `expression recursion limit exceeded: ${this.maxDepth}`);
    void offset;
  }
  private leave(): void {
    this.depth--;
  }

  parseStart(): Expr {
    const e = this.parseExpr();
    if (this.tok.kind !== 'eof') {
      const t = this.tok;
      const word = this.peek().kind === 'eof' ? 'extraneous' : 'mismatched';
      this.fail(t.offset, `Syntax error: ${word} input '${t.text}' expecting <EOF>`);
    }
    return e;
  }

  private parseExpr(): Expr {
    this.enter(this.tok.offset);
    try {
      const cond = this.parseOr();
      if (!this.is('?')) return cond;
      const q = this.advance();
      const id = this.f.id(q.offset);
      const ifTrue = this.parseOr();
      this.expect(':');
      const ifFalse = this.parseExpr();
      return this.f.callWithId(id, '_?_:_', [cond, ifTrue, ifFalse]);
    } finally {
      this.leave();
    }
  }

  /** `a || b || c`, as cel-go's logic manager builds it: a balanced tree of binary calls. */
  private parseLogical(op: '||' | '&&', fn: string, next: () => Expr): Expr {
    const terms = [next()];
    const ops: number[] = [];
    while (this.is(op)) {
      const t = this.advance();
      ops.push(this.f.id(t.offset));
      terms.push(next());
    }
    if (terms.length === 1) return terms[0]!;
    const balanced = (lo: number, hi: number): Expr => {
      const mid = Math.floor((lo + hi + 1) / 2);
      const left = mid === lo ? terms[mid]! : balanced(lo, mid - 1);
      const right = mid === hi ? terms[mid + 1]! : balanced(mid + 1, hi);
      return this.f.callWithId(ops[mid]!, fn, [left, right]);
    };
    return balanced(0, ops.length - 1);
  }

  private parseOr(): Expr {
    return this.parseLogical('||', '_||_', () => this.parseAnd());
  }
  private parseAnd(): Expr {
    return this.parseLogical('&&', '_&&_', () => this.parseRelation());
  }

  /** A left-associative chain; each operator nests one level deeper in cel-go's parse tree. */
  private parseChain(ops: Record<string, string>, next: () => Expr): Expr {
    let e = next();
    let chain = 0;
    while ((this.tok.kind === 'op' || this.tok.kind === 'kw') && ops[this.tok.text] !== undefined) {
      const t = this.advance();
      chain++;
      if (this.depth + chain > this.maxDepth) this.fail(undefined, `expression recursion limit exceeded: ${this.maxDepth}`);
      const id = this.f.id(t.offset);
      const rhs = next();
      e = this.f.callWithId(id, ops[t.text]!, [e, rhs]);
    }
    return e;
  }

  private parseRelation(): Expr {
    return this.parseChain(RELATIONS, () => this.parseAdditive());
  }
  private parseAdditive(): Expr {
    return this.parseChain({ '+': '_+_', '-': '_-_' }, () => this.parseMultiplicative());
  }
  private parseMultiplicative(): Expr {
    return this.parseChain({ '*': '_*_', '/': '_/_', '%': '_%_' }, () => this.parseUnary());
  }

  private parseUnary(): Expr {
    if (this.is('!')) {
      const first = this.tok;
      let n = 0;
      while (this.is('!')) {
        this.advance();
        n++;
      }
      const member = this.parseMember();
      return n % 2 === 0 ? member : this.f.callWithId(this.f.id(first.offset), '!_', [member]);
    }
    if (this.is('-')) {
      const first = this.tok;
      let n = 0;
      while (this.is('-')) {
        this.advance();
        n++;
      }
      // `-1` is a negative literal in the grammar, so the most negative int can be written.
      if (n % 2 === 1 && (this.tok.kind === 'int' || this.tok.kind === 'float')) {
        const lit = this.parseNumber(this.advance(), true, this.tokens[this.pos - 2]!.offset);
        return this.parseMemberSuffix(lit);
      }
      if (this.tok.kind === 'eof' || (this.tok.kind === 'op' && !canStartExpr(this.tok))) {
        if (n >= 2) this.fail(this.tok.offset, `Syntax error: no viable alternative at input '-'`);
      }
      const member = this.parseMember();
      return n % 2 === 0 ? member : this.f.callWithId(this.f.id(first.offset), '-_', [member]);
    }
    return this.parseMember();
  }

  private parseMember(): Expr {
    return this.parseMemberSuffix(this.parsePrimary());
  }

  private parseMemberSuffix(start: Expr): Expr {
    let e = start;
    let chain = 0;
    for (;;) {
      if (this.is('.')) {
        chain++;
        if (this.depth + chain > this.maxDepth) this.fail(undefined, `expression recursion limit exceeded: ${this.maxDepth}`);
        const dot = this.advance();
        const opt = this.is('?') ? this.advance() : undefined;
        const nameTok = this.tok;
        if (nameTok.kind !== 'ident' && nameTok.kind !== 'escident') {
          const expecting = nameTok.kind === 'kw' && !opt ? 'IDENTIFIER' : '{IDENTIFIER, ESC_IDENTIFIER}';
          this.fail(nameTok.offset, `Syntax error: mismatched input '${this.shown(nameTok)}' expecting ${expecting}`);
        }
        this.advance();
        if (!opt && nameTok.kind === 'ident' && this.is('(')) {
          const open = this.advance();
          const id = this.f.id(open.offset);
          const args = this.parseArgs();
          e = this.callOrMacro(id, open.offset, nameTok.text, e, args);
          continue;
        }
        const field = this.fieldName(nameTok);
        if (opt) {
          const id = this.f.id(dot.offset);
          e = this.f.callWithId(id, '_?._', [e, this.f.literal(nameTok.offset, field)]);
        } else {
          e = this.f.select(dot.offset, e, field);
        }
        continue;
      }
      if (this.is('[')) {
        chain++;
        if (this.depth + chain > this.maxDepth) this.fail(undefined, `expression recursion limit exceeded: ${this.maxDepth}`);
        const open = this.advance();
        const opt = this.is('?') ? this.advance() : undefined;
        const id = this.f.id(open.offset);
        const index = this.parseExpr();
        this.expect(']');
        e = this.f.callWithId(id, opt ? '_[?_]' : '_[_]', [e, index]);
        continue;
      }
      return e;
    }
  }

  /** An identifier after `.` or in a message literal; backquoted names are not enabled in Kubernetes' environment. */
  private fieldName(t: Token): string {
    if (t.kind === 'escident') {
      this.error(t.offset, "unsupported syntax: '`'");
      return t.text.slice(1, -1);
    }
    return t.text;
  }

  private parseArgs(): Expr[] {
    const args: Expr[] = [];
    if (this.is(')')) {
      this.advance();
      return args;
    }
    for (;;) {
      args.push(this.parseExpr());
      if (this.is(',')) {
        this.advance();
        continue;
      }
      if (this.is(')')) {
        this.advance();
        return args;
      }
      const t = this.tok;
      if (t.kind === 'eof') this.fail(t.offset, `Syntax error: missing ')' at '<EOF>'`);
      this.fail(t.offset, `Syntax error: mismatched input '${this.shown(t)}' expecting {')', ','}`);
    }
  }

  private callOrMacro(id: number, offset: number, name: string, target: Expr | undefined, args: Expr[]): Expr {
    const expanded = expandMacro(this.f, offset, name, target, args);
    if (expanded === undefined) return this.f.callWithId(id, name, args, target);
    if (isMacroError(expanded)) {
      this.error(this.f.offsets.get(expanded.at.id), expanded.message);
      return this.f.callWithId(id, name, args, target);
    }
    return expanded;
  }

  private parsePrimary(): Expr {
    const t = this.tok;
    switch (t.kind) {
      case 'int':
      case 'float':
        this.advance();
        return this.parseNumber(t, false, t.offset);
      case 'uint':
        this.advance();
        return this.parseUint(t);
      case 'string': {
        this.advance();
        const r = unescapeString(t.text);
        if (!r.ok) {
          this.error(t.offset, r.message);
          return this.f.literal(t.offset, '');
        }
        return this.f.literal(t.offset, r.value);
      }
      case 'bytes': {
        this.advance();
        const r = unescapeBytes(t.text);
        if (!r.ok) {
          this.error(t.offset, r.message);
          return this.f.literal(t.offset, new Uint8Array());
        }
        return this.f.literal(t.offset, r.value);
      }
      case 'kw':
        if (t.text === 'true' || t.text === 'false') {
          this.advance();
          return this.f.literal(t.offset, t.text === 'true');
        }
        if (t.text === 'null') {
          this.advance();
          return this.f.literal(t.offset, null);
        }
        break;
      case 'ident':
        return this.parseIdentOrCall(false);
      case 'op':
        if (t.text === '.' && this.peek().kind === 'ident') {
          this.advance();
          return this.parseIdentOrCall(true);
        }
        if (t.text === '(') {
          this.advance();
          const e = this.parseExpr();
          this.expect(')');
          return e;
        }
        if (t.text === '[') return this.parseList();
        if (t.text === '{') return this.parseMap();
        break;
      default:
        break;
    }
    // ANTLR deletes a single stray token when what follows could start the expression.
    if (t.kind !== 'eof' && canStartExpr(this.peek())) {
      this.error(t.offset, `Syntax error: extraneous input '${t.text}' expecting ${EXPR_START}`);
      this.advance();
      return this.parsePrimary();
    }
    this.fail(t.offset, `Syntax error: mismatched input '${this.shown(t)}' expecting ${EXPR_START}`);
  }

  private parseIdentOrCall(leadingDot: boolean): Expr {
    const t = this.advance();
    const name = (leadingDot ? '.' : '') + t.text;
    if (this.is('(')) {
      if (RESERVED.has(t.text)) this.fail(t.offset, `reserved identifier: ${t.text}`);
      const open = this.advance();
      const id = this.f.id(open.offset);
      const args = this.parseArgs();
      return this.callOrMacro(id, open.offset, name, undefined, args);
    }
    // A message literal: `a.b.C{...}`.
    let k = this.pos;
    const parts = [t.text];
    while (this.tokens[k]?.kind === 'op' && this.tokens[k]!.text === '.' && this.tokens[k + 1]?.kind === 'ident') {
      parts.push(this.tokens[k + 1]!.text);
      k += 2;
    }
    if (this.tokens[k]?.kind === 'op' && this.tokens[k]!.text === '{') {
      this.pos = k;
      return this.parseStruct((leadingDot ? '.' : '') + parts.join('.'));
    }
    if (RESERVED.has(t.text)) this.fail(t.offset, `reserved identifier: ${t.text}`);
    return this.f.ident(t.offset, name);
  }

  private parseStruct(typeName: string): Expr {
    const open = this.advance();
    const id = this.f.id(open.offset);
    const fields: StructField[] = [];
    while (!this.is('}')) {
      const opt = this.is('?') ? this.advance() : undefined;
      const nameTok = this.tok;
      if (nameTok.kind !== 'ident' && nameTok.kind !== 'escident') {
        const word =
          nameTok.kind !== 'eof' && !opt && this.peek().kind !== 'eof' && (this.peek().kind === 'ident' || this.peek().text === '}')
            ? 'extraneous'
            : 'mismatched';
        this.fail(
          nameTok.offset,
          `Syntax error: ${word} input '${this.shown(nameTok)}' expecting ${opt ? '{IDENTIFIER, ESC_IDENTIFIER}' : "{'}', ',', '?', IDENTIFIER, ESC_IDENTIFIER}"}`,
        );
      }
      this.advance();
      const colon = this.expect(':');
      const value = this.parseExpr();
      fields.push({ id: this.f.id(colon.offset), name: this.fieldName(nameTok), value, optional: opt !== undefined });
      if (!this.is(',')) break;
      this.advance();
    }
    this.expect('}', "{'}', ','}");
    return this.f.struct(id, typeName, fields);
  }

  private parseList(): Expr {
    const open = this.advance();
    const id = this.f.id(open.offset);
    const elements: Expr[] = [];
    const optionalIndices: number[] = [];
    while (!this.is(']')) {
      if (this.is('?')) {
        this.advance();
        optionalIndices.push(elements.length);
      }
      elements.push(this.parseExpr());
      if (!this.is(',')) break;
      this.advance();
    }
    this.expect(']', this.tok.kind === 'eof' ? "']'" : "{']', ','}");
    return { kind: 'list', id, elements, optionalIndices };
  }

  private parseMap(): Expr {
    const open = this.advance();
    const id = this.f.id(open.offset);
    const entries: MapEntry[] = [];
    while (!this.is('}')) {
      const opt = this.is('?') ? this.advance() : undefined;
      if (!opt && entries.length === 0 && !canStartExpr(this.tok)) {
        const t = this.tok;
        const word = t.kind !== 'eof' && canStartExpr(this.peek()) ? 'extraneous' : 'mismatched';
        this.fail(t.offset, `Syntax error: ${word} input '${this.shown(t)}' expecting ${MAP_START}`);
      }
      const key = this.parseExpr();
      const colon = this.expect(':');
      const value = this.parseExpr();
      entries.push({ id: this.f.id(colon.offset), key, value, optional: opt !== undefined });
      if (!this.is(',')) break;
      this.advance();
    }
    this.expect('}', "{'}', ','}");
    return { kind: 'map', id, entries };
  }

  private parseNumber(t: Token, negative: boolean, offset: number): Expr {
    if (t.kind === 'float') {
      const v = Number(t.text) * (negative ? -1 : 1);
      if (!Number.isFinite(v)) {
        this.error(offset, 'invalid double literal');
        return this.f.literal(offset, 0);
      }
      return this.f.literal(offset, v);
    }
    let v: bigint;
    try {
      v = /^0[xX]/.test(t.text) ? BigInt(t.text) : BigInt(t.text);
    } catch {
      v = 2n ** 64n;
    }
    if (negative) v = -v;
    if (v < INT64_MIN || v > INT64_MAX) {
      this.error(offset, 'invalid int literal');
      return this.f.literal(offset, 0n);
    }
    return this.f.literal(offset, v);
  }

  private parseUint(t: Token): Expr {
    const v = BigInt(t.text.slice(0, -1));
    if (v > UINT64_MAX) {
      this.error(t.offset, 'invalid uint literal');
      return this.f.literal(t.offset, new CelUint(0n));
    }
    return this.f.literal(t.offset, new CelUint(v));
  }
}

/** Parses a CEL expression. */
export function parse(source: string, options: ParseOptions = {}): ParseResult {
  const limit = options.expressionSizeCodePointLimit ?? 100_000;
  const size = codePointLength(source);
  if (size > limit) {
    return { parsed: undefined, issues: [{ offset: undefined, message: `expression code point size exceeds limit: size: ${size}, limit ${limit}` }] };
  }
  const { tokens, errors } = lex(source);
  const p = new Parser(tokens, options.maxRecursionDepth ?? 250);
  for (const e of errors) p.issues.push({ offset: e.offset, message: e.message });
  let expr: Expr | undefined;
  try {
    expr = p.parseStart();
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
  }
  if (p.issues.length > 0 || !expr) return { parsed: undefined, issues: p.issues };
  return { parsed: { expr, offsets: p.f.offsets, source }, issues: [] };
}
