/**
 * client-go's JSONPath parser (`util/jsonpath/parser.go`): the same grammar, the same quirks and
 * the same error messages, which Kubernetes shows to users. Text outside `{...}` is kept as text;
 * inside an action the parser reads fields, brackets, filters, recursive descent, quoted strings,
 * numbers and words (`range`, `end`, `true`, `false`).
 *
 * client-go's parse functions call each other in tail position, one call per token; here they are
 * a loop, so a template of any length parses in constant stack. Sub-templates (a union member, a
 * bracket key, the sides of a filter) are parsed by a fresh parser as client-go does; they cannot
 * nest more than a few levels, since each one is cut from its parent's text at the first `]` or
 * unquoted `)`.
 */
import type { ArrayNode, FilterNode, ListNode, SliceParam } from './ast.js';
import { JsonPathError } from './errors.js';
import { unquoteExtend, INVALID_SYNTAX } from './unquote.js';

const EOF = -1;

const dictKeyPattern = /^'([^']*)'$/;
const slicePattern = /^(-?[0-9]*)(:-?[0-9]*)?(:-?[0-9]*)?$/;
// Go's `.` matches anything but a newline (which a filter cannot hold); JavaScript's needs the s flag for \r and U+2028/9.
const comparisonPattern = /^([^!<>=]+)([!<>=]+)(.+?)$/s;
const intPattern = /^[+-]?[0-9]+$/;
const floatPattern = /^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)$/;
const letter = /^\p{L}$/u;
const digit = /^\p{Nd}$/u;
// strconv.IsPrint: letters, marks, numbers, punctuation, symbols and the ASCII space.
const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function char(r: number): string {
  return String.fromCodePoint(r);
}

/** unicode.IsDigit. */
function isDigit(r: number): boolean {
  if (r < 0x80) return r >= 0x30 && r <= 0x39;
  return digit.test(char(r));
}

/** isAlphaNumeric: `_`, a letter or a digit. */
function isAlphaNumeric(r: number): boolean {
  if (r === 0x5f) return true;
  if (r < 0) return false;
  if (r < 0x80) return (r >= 0x30 && r <= 0x39) || (r >= 0x41 && r <= 0x5a) || (r >= 0x61 && r <= 0x7a);
  return letter.test(char(r)) || digit.test(char(r));
}

function isEndOfLine(r: number): boolean {
  return r === 0x0d || r === 0x0a;
}

/** What may follow a field name or a word: space, end of line, end of input, `.,[]$@{}`. */
function isTerminator(r: number): boolean {
  switch (r) {
    case EOF:
    case 0x20: // space
    case 0x09: // tab
    case 0x0d:
    case 0x0a:
    case 0x2e: // .
    case 0x2c: // ,
    case 0x5b: // [
    case 0x5d: // ]
    case 0x24: // $
    case 0x40: // @
    case 0x7b: // {
    case 0x7d: // }
      return true;
    default:
      return false;
  }
}

/** Go's `%#U`: `U+0021 '!'`, without the quoted character when it is not printable. */
function formatRune(r: number): string {
  const code = 'U+' + r.toString(16).toUpperCase().padStart(4, '0');
  return printable.test(char(r)) ? `${code} '${char(r)}'` : code;
}

/** strconv.Atoi: a decimal int64, or undefined. */
function atoi(s: string): bigint | undefined {
  if (!intPattern.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

function list(): ListNode {
  return { type: 'list', nodes: [] };
}

/** Parses a template; throws {@link JsonPathError} with client-go's message. */
export function parseTemplate(text: string): ListNode {
  return new Parser(text).parse();
}

/** client-go's parseAction: `text` as the inside of one action. */
function parseAction(text: string): ListNode {
  return parseTemplate(`{${text}}`).nodes[0] as ListNode;
}

class Parser {
  private readonly root = list();
  private pos = 0;
  private start = 0;
  private width = 0;

  constructor(private readonly input: string) {}

  parse(): ListNode {
    let action: ListNode | undefined;
    for (;;) {
      if (action === undefined) {
        // Text up to the next `{`, or to the end.
        const open = this.input.indexOf('{', this.pos);
        this.pos = open < 0 ? this.input.length : open;
        if (this.pos > this.start) this.root.nodes.push({ type: 'text', text: this.consumeText() });
        if (open < 0) return this.root;
        this.pos += 1;
        this.consumeText();
        action = list();
        this.root.nodes.push(action);
        continue;
      }
      if (!this.insideAction(action)) action = undefined;
    }
  }

  /** One token of an action (parseInsideAction); false once the action is closed by `}`. */
  private insideAction(cur: ListNode): boolean {
    if (this.input.startsWith('}', this.pos)) {
      this.pos += 1;
      this.consumeText();
      return false;
    }
    if (this.input.startsWith('[?(', this.pos)) {
      this.parseFilter(cur);
      return true;
    }
    if (this.input.startsWith('..', this.pos)) {
      this.parseRecursive(cur);
      return true;
    }
    const r = this.next();
    if (r === EOF || isEndOfLine(r)) throw new JsonPathError('unclosed action');
    if (r === 0x20 || r === 0x40 || r === 0x24) {
      // A space, or `@` / `$` (the current object): nothing to do.
      this.consumeText();
    } else if (r === 0x5b) {
      this.parseArray(cur);
    } else if (r === 0x22 || r === 0x27) {
      this.parseQuote(cur, r);
    } else if (r === 0x2e) {
      this.parseField(cur);
    } else if (r === 0x2b || r === 0x2d || isDigit(r)) {
      this.backup();
      this.parseNumber(cur);
    } else if (isAlphaNumeric(r)) {
      this.backup();
      this.parseIdentifier(cur);
    } else {
      throw new JsonPathError(`unrecognized character in action: ${formatRune(r)}`);
    }
    return true;
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  /** The next code point (a lone surrogate reads as U+FFFD, as Go reads its UTF-8), or EOF. */
  private next(): number {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = this.input.codePointAt(this.pos)!;
    this.width = r > 0xffff ? 2 : 1;
    this.pos += this.width;
    return r >= 0xd800 && r <= 0xdfff ? 0xfffd : r;
  }

  private peek(): number {
    const r = this.next();
    this.backup();
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  /** The code unit two before the cursor is a backslash (the one before a just-read quote). */
  private escaped(): boolean {
    return this.input.charCodeAt(this.pos - 2) === 0x5c;
  }

  private parseIdentifier(cur: ListNode): void {
    while (!isTerminator(this.next())) {
      // a word runs up to a terminator
    }
    this.backup();
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes.at(-1)?.type === 'recursive') throw new JsonPathError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    const sign = this.peek();
    if (sign === 0x2b || sign === 0x2d) this.next();
    for (;;) {
      const r = this.next();
      if (r !== 0x2e && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    const int = atoi(value);
    if (int !== undefined) {
      cur.nodes.push({ type: 'int', value: Number(int) });
      return;
    }
    const float = floatPattern.test(value) ? Number(value) : NaN;
    if (!Number.isFinite(float)) throw new JsonPathError(`cannot parse number ${value}`);
    cur.nodes.push({ type: 'float', value: float });
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated array');
      if (r === 0x5d) break;
    }
    let text = this.consumeText().slice(1, -1);
    if (text === '*') text = ':';

    const members = text.split(',');
    if (members.length > 1) {
      const nodes = members.map((m) => parseAction(`[${m.replace(/^ +| +$/g, '')}]`));
      cur.nodes.push({ type: 'union', nodes });
      return;
    }

    const key = dictKeyPattern.exec(text);
    if (key) {
      for (const node of parseAction(`.${key[1]!}`).nodes) cur.nodes.push(node);
      return;
    }

    const slice = slicePattern.exec(text);
    if (!slice) throw new JsonPathError(`invalid array index ${text}`);
    cur.nodes.push(sliceNode([slice[1] ?? '', slice[2] ?? '', slice[3] ?? '']));
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    let begin = false;
    let end = false;
    let pair = 0;
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated filter');
      if (r === 0x22 || r === 0x27) {
        if (!begin) {
          // The first quote decides which quote closes the quoted part.
          begin = true;
          pair = r;
          continue;
        }
        if (!this.escaped() && r === pair) end = true;
      } else if (r === 0x29 && begin === end) {
        // A `)` outside the (first) quoted part.
        break;
      }
    }
    if (this.next() !== 0x5d) throw new JsonPathError('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const cmp = comparisonPattern.exec(text);
    let node: FilterNode;
    if (!cmp) {
      node = { type: 'filter', left: parseAction(text), right: list(), operator: 'exists' };
    } else {
      const left = parseAction(cmp[1]!);
      node = { type: 'filter', left, right: parseAction(cmp[3]!), operator: cmp[2]! };
    }
    cur.nodes.push(node);
  }

  private parseQuote(cur: ListNode, quote: number): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === 0x0a) throw new JsonPathError('unterminated quoted string');
      if (r === quote && !this.escaped()) break;
    }
    const value = this.consumeText();
    const s = unquoteExtend(value);
    if (s === undefined) throw new JsonPathError(`unquote string ${value} error ${INVALID_SYNTAX}`);
    cur.nodes.push({ type: 'text', text: s });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    while (this.advance()) {
      // a field name runs up to an unescaped terminator
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', name: value.replaceAll('\\', '') });
  }

  /** Steps over one character of a field name (a backslash escapes the next one). */
  private advance(): boolean {
    const r = this.next();
    if (r === 0x5c) {
      this.next();
    } else if (isTerminator(r)) {
      this.backup();
      return false;
    }
    return true;
  }
}

/** The bounds of `[start:end:step]` as client-go reads them; `parts` are the three groups of the slice pattern. */
function sliceNode(parts: [string, string, string]): ArrayNode {
  const params: SliceParam[] = [];
  for (let i = 0; i < 3; i++) {
    let text = parts[i]!;
    if (text !== '') {
      if (i > 0) text = text.slice(1);
      if (i > 0 && text === '') {
        params.push({ value: 0n, known: false, derived: false });
      } else {
        const value = atoi(text);
        if (value === undefined) throw new JsonPathError(`array index ${text} is not a number`);
        params.push({ value, known: true, derived: false });
      }
    } else if (i === 1) {
      // `[i]`: up to i+1 (Go's int arithmetic wraps).
      params.push({ value: BigInt.asIntN(64, params[0]!.value + 1n), known: true, derived: true });
    } else {
      params.push({ value: 0n, known: false, derived: false });
    }
  }
  return { type: 'array', params: [params[0]!, params[1]!, params[2]!] };
}
