/**
 * Go's `regexp` package (RE2 syntax, `regexp.Compile`'s Perl flags) for the patterns Kubernetes
 * matches with it: a parser of Go's syntax, its error texts (`error parsing regexp: missing closing
 * ): ...`), and a matcher that answers `MatchString` (unanchored search).
 *
 * Why not translate to a JavaScript RegExp: the dialects differ in ways a pattern written for Go
 * notices (`.` and `\s` match other characters, `\pL` and `\p{Greek}` are spelled differently,
 * `\Q...\E`, `[[:alpha:]]`, octal escapes, `{` as a literal, `(?i)` inside a pattern), and a
 * backtracking engine can take exponential time on a hostile value (`^(a+)+$` against
 * `aaaa...!`), where RE2 guarantees time linear in the input. The matcher here is a Pike VM (a
 * breadth-first simulation of the compiled NFA): time O(input × program), no backtracking.
 *
 * Matching is over Unicode code points (a lone UTF-16 surrogate counts as U+FFFD, as Go would
 * see it after decoding JSON). Case folding (`(?i)`) uses JavaScript's case mappings to build a
 * code point's fold orbit, which agrees with Go's `unicode.SimpleFold` on the orbits that matter
 * (`k`/`K`/U+212A, `s`/`S`/U+017F, σ/ς/Σ...). Unicode classes (`\pL`, `\p{Greek}`) use
 * JavaScript's Unicode property tables, whose Unicode version may differ slightly from Go's.
 */

/** A compiled Go regular expression. */
export interface GoRegexp {
  /** The pattern as written. */
  readonly source: string;
  /** Go's `MatchString`: whether the pattern matches anywhere in `s`. */
  test(s: string): boolean;
}

/** The result of {@link compileGoRegexp}: the regexp, or Go's error text. */
export type GoRegexpResult = { readonly ok: true; readonly regexp: GoRegexp } | { readonly ok: false; readonly error: string };

/** Go's `syntax.ErrorCode` texts. */
const ERR = {
  invalidCharClass: 'invalid character class',
  invalidCharRange: 'invalid character class range',
  invalidEscape: 'invalid escape sequence',
  invalidNamedCapture: 'invalid named capture',
  invalidPerlOp: 'invalid or unsupported Perl syntax',
  invalidRepeatOp: 'invalid nested repetition operator',
  invalidRepeatSize: 'invalid repeat count',
  missingBracket: 'missing closing ]',
  missingParen: 'missing closing )',
  missingRepeatArgument: 'missing argument to repetition operator',
  trailingBackslash: 'trailing backslash at end of expression',
  unexpectedParen: 'unexpected )',
  nestingDepth: 'expression nests too deeply',
  large: 'expression too large',
} as const;

class SyntaxError_ extends Error {
  constructor(code: string, expr: string) {
    super(`error parsing regexp: ${code}: \`${expr}\``);
  }
}

// ---------------------------------------------------------------------------------------------
// Case folding
// ---------------------------------------------------------------------------------------------

const orbitCache = new Map<number, readonly number[]>();

function single(s: string): number | undefined {
  const cp = s.codePointAt(0);
  return cp !== undefined && String.fromCodePoint(cp).length === s.length ? cp : undefined;
}

/** The code points a case-insensitive match treats as `cp` (itself first). */
function foldOrbit(cp: number): readonly number[] {
  let orbit = orbitCache.get(cp);
  if (orbit) return orbit;
  const ch = String.fromCodePoint(cp);
  const out = new Set<number>([cp]);
  const lower = single(ch.toLowerCase());
  const upper = single(ch.toUpperCase());
  for (const x of [lower, upper]) if (x !== undefined) out.add(x);
  if (upper !== undefined) {
    const l = single(String.fromCodePoint(upper).toLowerCase());
    if (l !== undefined) out.add(l);
  }
  if (lower !== undefined) {
    const u = single(String.fromCodePoint(lower).toUpperCase());
    if (u !== undefined) out.add(u);
  }
  orbit = [...out];
  if (orbitCache.size < 65536) orbitCache.set(cp, orbit);
  return orbit;
}

/** One representative of a fold orbit: equal for two code points exactly when they fold together. */
function foldKey(cp: number): number {
  let min = cp;
  for (const x of foldOrbit(cp)) if (x < min) min = x;
  return min;
}

// ---------------------------------------------------------------------------------------------
// Character classes
// ---------------------------------------------------------------------------------------------

type Range = readonly [number, number];

/** A character class: ranges plus Unicode-property tests, optionally negated and case-folded. */
interface CharClass {
  ranges: Range[];
  props: Array<{ test: (cp: number) => boolean; negated: boolean }>;
}

const MAX_RUNE = 0x10ffff;

const PERL: Record<string, Range[]> = {
  d: [[0x30, 0x39]],
  s: [
    [0x09, 0x0a],
    [0x0c, 0x0d],
    [0x20, 0x20],
  ],
  w: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
};

const POSIX: Record<string, Range[]> = {
  alnum: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  alpha: [
    [0x41, 0x5a],
    [0x61, 0x7a],
  ],
  ascii: [[0x00, 0x7f]],
  blank: [
    [0x09, 0x09],
    [0x20, 0x20],
  ],
  cntrl: [
    [0x00, 0x1f],
    [0x7f, 0x7f],
  ],
  digit: [[0x30, 0x39]],
  graph: [[0x21, 0x7e]],
  lower: [[0x61, 0x7a]],
  print: [[0x20, 0x7e]],
  punct: [
    [0x21, 0x2f],
    [0x3a, 0x40],
    [0x5b, 0x60],
    [0x7b, 0x7e],
  ],
  space: [
    [0x09, 0x0d],
    [0x20, 0x20],
  ],
  upper: [[0x41, 0x5a]],
  word: [
    [0x30, 0x39],
    [0x41, 0x5a],
    [0x5f, 0x5f],
    [0x61, 0x7a],
  ],
  xdigit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
};

/** Go's general category names (`unicode.Categories`). */
const CATEGORIES = new Set('C Cc Cf Co Cs L Ll Lm Lo Lt Lu M Mc Me Mn N Nd Nl No P Pc Pd Pe Pf Pi Po Ps S Sc Sk Sm So Z Zl Zp Zs'.split(' '));

const propertyCache = new Map<string, ((cp: number) => boolean) | null>();

/** The test for Go's Unicode class `name` (`L`, `Greek`, `Any`), or undefined when Go has no such class. */
function unicodeProperty(name: string): ((cp: number) => boolean) | undefined {
  let test = propertyCache.get(name);
  if (test !== undefined) return test ?? undefined;
  test = null;
  if (name === 'Any') {
    test = () => true;
  } else if (/^[A-Za-z_]+$/.test(name)) {
    const source = CATEGORIES.has(name) ? `\\p{gc=${name}}` : `\\p{Script=${name}}`;
    try {
      const re = new RegExp(`^${source}$`, 'u');
      test = (cp: number) => re.test(String.fromCodePoint(cp));
    } catch {
      test = null;
    }
  }
  propertyCache.set(name, test);
  return test ?? undefined;
}

function normalizeRanges(ranges: Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: Array<[number, number]> = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

function negateRanges(ranges: Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of normalizeRanges(ranges)) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_RUNE) out.push([next, MAX_RUNE]);
  return out;
}

/** Adds each range's case-fold orbits (Go's `appendFoldedRange`), for ranges small enough to walk. */
function foldRanges(ranges: Range[]): Range[] {
  const out: Range[] = [...ranges];
  for (const [lo, hi] of ranges) {
    if (hi - lo > 0x4000) continue;
    for (let cp = lo; cp <= hi; cp++) for (const x of foldOrbit(cp)) if (x < lo || x > hi) out.push([x, x]);
  }
  return normalizeRanges(out);
}

function inRanges(ranges: readonly Range[], cp: number): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ranges[mid]!;
    if (cp < r[0]) hi = mid - 1;
    else if (cp > r[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/** Turns a parsed class into a code point test. */
function classMatcher(cls: CharClass, negated: boolean, fold: boolean): (cp: number) => boolean {
  const ranges = fold ? foldRanges(cls.ranges) : normalizeRanges(cls.ranges);
  const props = cls.props;
  const member = (cp: number): boolean => {
    if (inRanges(ranges, cp)) return true;
    for (const p of props) if (p.test(cp) !== p.negated) return true;
    return false;
  };
  const folded = fold ? (cp: number) => foldOrbit(cp).some(member) : member;
  return negated ? (cp: number) => !folded(cp) : folded;
}

// ---------------------------------------------------------------------------------------------
// Syntax tree
// ---------------------------------------------------------------------------------------------

type Assertion = 'bot' | 'eot' | 'bol' | 'eol' | 'wb' | 'nwb';

type Node =
  | { op: 'empty' }
  | { op: 'char'; test: (cp: number) => boolean }
  | { op: 'assert'; kind: Assertion }
  | { op: 'cat'; subs: Node[] }
  | { op: 'alt'; subs: Node[] }
  | { op: 'rep'; sub: Node; min: number; max: number };

interface Flags {
  fold: boolean;
  multiLine: boolean;
  dotNL: boolean;
  ungreedy: boolean;
}

const MAX_NESTING = 1000;
const MAX_REPEAT = 1000;

function isDigit(cp: number | undefined): boolean {
  return cp !== undefined && cp >= 0x30 && cp <= 0x39;
}

function isAlnum(cp: number): boolean {
  return isDigit(cp) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
}

function hexVal(cp: number | undefined): number {
  if (cp === undefined) return -1;
  if (cp >= 0x30 && cp <= 0x39) return cp - 0x30;
  if (cp >= 0x61 && cp <= 0x66) return cp - 0x61 + 10;
  if (cp >= 0x41 && cp <= 0x46) return cp - 0x41 + 10;
  return -1;
}

function literal(cp: number, fold: boolean): Node {
  if (fold && foldOrbit(cp).length > 1) {
    const key = foldKey(cp);
    return { op: 'char', test: (c) => c === cp || foldKey(c) === key };
  }
  return { op: 'char', test: (c) => c === cp };
}

/** Whether nested counted repetitions stay within Go's limit (`repeatIsValid`). */
function repeatIsValid(node: Node, n: number): boolean {
  if (node.op === 'rep' && !(node.min === 0 && node.max === -1) && !(node.min === 1 && node.max === -1) && !(node.min === 0 && node.max === 1)) {
    let m = node.max;
    if (m === 0) return true;
    if (m < 0) m = node.min;
    if (m > n) return false;
    if (m > 0) n = Math.floor(n / m);
  }
  if (node.op === 'cat' || node.op === 'alt') return node.subs.every((s) => repeatIsValid(s, n));
  if (node.op === 'rep') return repeatIsValid(node.sub, n);
  return true;
}

class Parser {
  private pos = 0;
  private depth = 0;
  private readonly cps: number[];

  constructor(private readonly source: string) {
    this.cps = Array.from(source, (ch) => {
      const cp = ch.codePointAt(0)!;
      return cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp;
    });
  }

  /** The pattern text of code points `from` to `to`. */
  private text(from: number, to = this.cps.length): string {
    return String.fromCodePoint(...this.cps.slice(from, to));
  }

  private peek(offset = 0): number | undefined {
    return this.cps[this.pos + offset];
  }

  parse(): Node {
    const node = this.parseAlternation({ fold: false, multiLine: false, dotNL: false, ungreedy: false });
    if (this.pos < this.cps.length) throw new SyntaxError_(ERR.unexpectedParen, this.source);
    return node;
  }

  private parseAlternation(flags: Flags): Node {
    if (++this.depth > MAX_NESTING) throw new SyntaxError_(ERR.nestingDepth, this.source);
    const subs: Node[] = [this.parseConcat(flags)];
    while (this.peek() === 0x7c) {
      this.pos++;
      subs.push(this.parseConcat(flags));
    }
    this.depth--;
    return subs.length === 1 ? subs[0]! : { op: 'alt', subs };
  }

  /** A sequence of repeated atoms, up to `|`, `)` or the end. Flag groups `(?i)` change `flags` for the rest. */
  private parseConcat(flags: Flags): Node {
    const subs: Node[] = [];
    // Where the repetition operator just before started, when the last thing parsed was one (Go's `lastRepeat`).
    let lastRepeat: number | undefined;
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === 0x7c || c === 0x29) break;
      if (c === 0x2a || c === 0x2b || c === 0x3f || (c === 0x7b && this.isRepeat())) {
        const opStart = this.pos;
        const { min, max } = this.parseRepeatOp();
        if (this.peek() === 0x3f) this.pos++; // non-greedy: the same language
        if (lastRepeat !== undefined) throw new SyntaxError_(ERR.invalidRepeatOp, this.text(lastRepeat, this.pos));
        const prev = subs.pop();
        if (prev === undefined) throw new SyntaxError_(ERR.missingRepeatArgument, this.text(opStart, this.pos));
        const node: Node = { op: 'rep', sub: prev, min, max };
        if ((min >= 2 || max >= 2) && !repeatIsValid(node, MAX_REPEAT)) throw new SyntaxError_(ERR.invalidRepeatSize, this.text(opStart, this.pos));
        subs.push(node);
        lastRepeat = opStart;
        continue;
      }
      subs.push(...this.parseAtom(flags));
      lastRepeat = undefined;
    }
    if (subs.length === 0) return { op: 'empty' };
    return subs.length === 1 ? subs[0]! : { op: 'cat', subs };
  }

  /** Whether the text at `{` is a repetition `{n}`, `{n,}` or `{n,m}` (else `{` is a literal). */
  private isRepeat(): boolean {
    // Go's parseInt: digits without a leading zero (a lone 0 is fine).
    const int = (i: number): number => {
      if (!isDigit(this.cps[i])) return -1;
      if (this.cps[i] === 0x30 && isDigit(this.cps[i + 1])) return -1;
      while (isDigit(this.cps[i])) i++;
      return i;
    };
    let i = int(this.pos + 1);
    if (i < 0) return false;
    if (this.cps[i] === 0x2c) {
      i++;
      if (this.cps[i] !== 0x7d) {
        i = int(i);
        if (i < 0) return false;
      }
    }
    return this.cps[i] === 0x7d;
  }

  private parseRepeatOp(): { min: number; max: number } {
    const c = this.cps[this.pos++]!;
    if (c === 0x2a) return { min: 0, max: -1 };
    if (c === 0x2b) return { min: 1, max: -1 };
    if (c === 0x3f) return { min: 0, max: 1 };
    const start = this.pos - 1;
    const num = (): number => {
      let n = 0;
      let digits = '';
      while (isDigit(this.peek())) digits += String.fromCodePoint(this.cps[this.pos++]!);
      n = digits.length > 8 ? -2 : Number(digits);
      return n;
    };
    const min = num();
    let max = min;
    if (this.peek() === 0x2c) {
      this.pos++;
      max = this.peek() === 0x7d ? -1 : num();
    }
    this.pos++; // '}'
    if (min < 0 || min > MAX_REPEAT || max > MAX_REPEAT || max === -2 || (max >= 0 && min > max))
      throw new SyntaxError_(ERR.invalidRepeatSize, this.text(start, this.pos));
    return { min, max };
  }

  /** The atoms at the cursor: usually one; none for a flag group `(?i)`; one per character of `\Q...\E`. */
  private parseAtom(flags: Flags): Node[] {
    const c = this.cps[this.pos]!;
    switch (c) {
      case 0x28: // (
        return this.parseGroup(flags);
      case 0x5b: // [
        return [this.parseClass(flags)];
      case 0x2e: // .
        this.pos++;
        return [flags.dotNL ? { op: 'char', test: () => true } : { op: 'char', test: (cp) => cp !== 0x0a }];
      case 0x5e: // ^
        this.pos++;
        return [{ op: 'assert', kind: flags.multiLine ? 'bol' : 'bot' }];
      case 0x24: // $
        this.pos++;
        return [{ op: 'assert', kind: flags.multiLine ? 'eol' : 'eot' }];
      case 0x5c: // \
        return this.parseBackslash(flags);
      default:
        this.pos++;
        return [literal(c, flags.fold)];
    }
  }

  private parseGroup(flags: Flags): Node[] {
    const start = this.pos;
    this.pos++;
    if (this.peek() !== 0x3f) return [this.groupBody(flags)];
    // (?P<name>re) and (?<name>re): a capture, which matching does not need to tell apart.
    if ((this.peek(1) === 0x50 && this.peek(2) === 0x3c) || this.peek(1) === 0x3c) {
      const nameStart = this.pos + (this.peek(1) === 0x50 ? 3 : 2);
      const end = this.cps.indexOf(0x3e, nameStart);
      if (end < 0) throw new SyntaxError_(ERR.invalidNamedCapture, this.text(start));
      const name = this.text(nameStart, end);
      this.pos = end + 1;
      if (!/^[A-Za-z0-9_]+$/.test(name)) throw new SyntaxError_(ERR.invalidNamedCapture, this.text(start, this.pos));
      return [this.groupBody(flags)];
    }
    return this.parseFlags(flags, start);
  }

  private groupBody(flags: Flags): Node {
    const inner = this.parseAlternation({ ...flags });
    if (this.peek() !== 0x29) throw new SyntaxError_(ERR.missingParen, this.source);
    this.pos++;
    return inner;
  }

  /** `(?flags)` (changes `flags` up to the end of the enclosing group) or `(?flags:re)`. */
  private parseFlags(flags: Flags, start: number): Node[] {
    this.pos++; // '?'
    const next: Flags = { ...flags };
    let sign = true;
    let sawFlag = false;
    while (this.pos < this.cps.length) {
      const c = this.cps[this.pos++]!;
      switch (c) {
        case 0x69: // i
          next.fold = sign;
          sawFlag = true;
          continue;
        case 0x6d: // m
          next.multiLine = sign;
          sawFlag = true;
          continue;
        case 0x73: // s
          next.dotNL = sign;
          sawFlag = true;
          continue;
        case 0x55: // U
          next.ungreedy = sign;
          sawFlag = true;
          continue;
        case 0x2d: // -
          if (!sign) break;
          sign = false;
          sawFlag = false;
          continue;
        case 0x3a: // :
        case 0x29: // )
          if (!sign && !sawFlag) break;
          if (c === 0x3a) return [this.groupBody(next)];
          Object.assign(flags, next);
          return [];
      }
      break;
    }
    throw new SyntaxError_(ERR.invalidPerlOp, this.text(start, this.pos));
  }

  private parseBackslash(flags: Flags): Node[] {
    const start = this.pos;
    const c = this.peek(1);
    if (c === undefined) throw new SyntaxError_(ERR.trailingBackslash, '');
    switch (c) {
      case 0x41: // \A
        this.pos += 2;
        return [{ op: 'assert', kind: 'bot' }];
      case 0x7a: // \z
        this.pos += 2;
        return [{ op: 'assert', kind: 'eot' }];
      case 0x62: // \b
        this.pos += 2;
        return [{ op: 'assert', kind: 'wb' }];
      case 0x42: // \B
        this.pos += 2;
        return [{ op: 'assert', kind: 'nwb' }];
      case 0x51: {
        // \Q...\E: the text up to \E (or the end) is literal, one atom per character.
        this.pos += 2;
        const subs: Node[] = [];
        while (this.pos < this.cps.length) {
          if (this.peek() === 0x5c && this.peek(1) === 0x45) {
            this.pos += 2;
            break;
          }
          subs.push(literal(this.cps[this.pos++]!, flags.fold));
        }
        return subs;
      }
      case 0x64:
      case 0x44:
      case 0x73:
      case 0x53:
      case 0x77:
      case 0x57: {
        this.pos += 2;
        const lower = String.fromCodePoint(c | 0x20);
        const negated = c < 0x61;
        return [{ op: 'char', test: classMatcher({ ranges: [...PERL[lower]!], props: [] }, negated, flags.fold) }];
      }
      case 0x70:
      case 0x50: {
        const cls: CharClass = { ranges: [], props: [] };
        const negated = this.parseUnicodeClass(cls);
        return [{ op: 'char', test: classMatcher(cls, negated, flags.fold) }];
      }
    }
    const cp = this.parseEscape(start);
    return [literal(cp, flags.fold)];
  }

  /** `\pN`, `\p{Name}`, `\p{^Name}`, `\PN`: adds the class to `cls`; true when the whole class is negated (`\P`). */
  private parseUnicodeClass(cls: CharClass): boolean {
    const start = this.pos;
    let negated = this.cps[this.pos + 1] === 0x50;
    this.pos += 2;
    let name: string;
    const c = this.peek();
    if (c === undefined) throw new SyntaxError_(ERR.invalidCharRange, this.text(start));
    if (c === 0x7b) {
      const end = this.cps.indexOf(0x7d, this.pos);
      if (end < 0) throw new SyntaxError_(ERR.invalidCharRange, this.text(start));
      name = this.text(this.pos + 1, end);
      this.pos = end + 1;
    } else {
      name = String.fromCodePoint(c);
      this.pos++;
    }
    if (name.startsWith('^')) {
      negated = !negated;
      name = name.slice(1);
    }
    const test = unicodeProperty(name);
    if (!test) throw new SyntaxError_(ERR.invalidCharRange, this.text(start, this.pos));
    cls.props.push({ test, negated: false });
    return negated;
  }

  /** A single-character escape (Go's `parseEscape`), returning its code point. */
  private parseEscape(start: number): number {
    this.pos++; // backslash
    const c = this.cps[this.pos++];
    if (c === undefined) throw new SyntaxError_(ERR.trailingBackslash, '');
    // Octal: \0, \012, and \1-\7 only when followed by another octal digit (else a backreference).
    if (c >= 0x31 && c <= 0x37) {
      const n = this.peek();
      if (n === undefined || n < 0x30 || n > 0x37) throw new SyntaxError_(ERR.invalidEscape, this.text(start, this.pos));
    }
    if (c >= 0x30 && c <= 0x37) {
      let v = c - 0x30;
      for (let i = 1; i < 3; i++) {
        const n = this.peek();
        if (n === undefined || n < 0x30 || n > 0x37) break;
        v = v * 8 + (n - 0x30);
        this.pos++;
      }
      return v;
    }
    switch (c) {
      case 0x78: {
        // \x41 or \x{10FFFF}
        const n = this.peek();
        if (n === undefined) throw new SyntaxError_(ERR.invalidEscape, this.text(start, this.pos));
        if (n === 0x7b) {
          this.pos++;
          let v = 0;
          let digits = 0;
          for (;;) {
            const d = this.peek();
            if (d === undefined) throw new SyntaxError_(ERR.invalidEscape, this.text(start, this.pos));
            this.pos++;
            if (d === 0x7d) break;
            const h = hexVal(d);
            if (h < 0) throw new SyntaxError_(ERR.invalidEscape, this.text(start, this.pos));
            v = v * 16 + h;
            digits++;
            if (v > MAX_RUNE) throw new SyntaxError_(ERR.invalidEscape, this.text(start, this.pos));
          }
          if (digits === 0) throw new SyntaxError_(ERR.invalidEscape, this.text(start, this.pos));
          return v;
        }
        const h1 = hexVal(n);
        const h2 = hexVal(this.peek(1));
        this.pos += 2;
        if (h1 < 0 || h2 < 0) throw new SyntaxError_(ERR.invalidEscape, this.text(start, Math.min(this.pos, this.cps.length)));
        return h1 * 16 + h2;
      }
      case 0x61:
        return 0x07; // \a
      case 0x66:
        return 0x0c; // \f
      case 0x6e:
        return 0x0a; // \n
      case 0x72:
        return 0x0d; // \r
      case 0x74:
        return 0x09; // \t
      case 0x76:
        return 0x0b; // \v
    }
    // Any ASCII punctuation escapes itself.
    if (c < 0x80 && !isAlnum(c)) return c;
    throw new SyntaxError_(ERR.invalidEscape, this.text(start, this.pos));
  }

  private parseClass(flags: Flags): Node {
    const start = this.pos;
    this.pos++; // [
    let negated = false;
    if (this.peek() === 0x5e) {
      negated = true;
      this.pos++;
    }
    const cls: CharClass = { ranges: [], props: [] };
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new SyntaxError_(ERR.missingBracket, this.text(start));
      if (c === 0x5d && !first) break;
      first = false;
      // [:alpha:] and [:^alpha:]
      if (c === 0x5b && this.peek(1) === 0x3a) {
        const end = this.findPosixEnd();
        if (end >= 0) {
          let name = this.text(this.pos + 2, end);
          let neg = false;
          if (name.startsWith('^')) {
            neg = true;
            name = name.slice(1);
          }
          const ranges = Object.hasOwn(POSIX, name) ? POSIX[name] : undefined;
          if (!ranges) throw new SyntaxError_(ERR.invalidCharRange, this.text(this.pos, end + 2));
          cls.ranges.push(...(neg ? negateRanges(ranges) : ranges));
          this.pos = end + 2;
          continue;
        }
      }
      if (c === 0x5c) {
        const e = this.peek(1);
        if (e === 0x70 || e === 0x50) {
          const sub: CharClass = { ranges: [], props: [] };
          const neg = this.parseUnicodeClass(sub);
          cls.props.push({ test: sub.props[0]!.test, negated: neg });
          continue;
        }
        if (e !== undefined && 'dDsSwW'.includes(String.fromCodePoint(e))) {
          const ranges = PERL[String.fromCodePoint(e | 0x20)]!;
          cls.ranges.push(...(e < 0x61 ? negateRanges(ranges) : ranges));
          this.pos += 2;
          continue;
        }
      }
      const rangeStart = this.pos;
      const lo = this.classChar(start);
      let hi = lo;
      if (this.peek() === 0x2d && this.peek(1) !== undefined && this.peek(1) !== 0x5d) {
        this.pos++;
        hi = this.classChar(start);
        if (hi < lo) throw new SyntaxError_(ERR.invalidCharRange, this.text(rangeStart, this.pos));
      }
      cls.ranges.push([lo, hi]);
    }
    this.pos++; // ]
    return { op: 'char', test: classMatcher(cls, negated, flags.fold) };
  }

  /** Where the `:]` closing a `[:name:]` at the cursor starts (Go searches the rest of the pattern), or -1. */
  private findPosixEnd(): number {
    for (let i = this.pos + 2; i + 1 < this.cps.length; i++) if (this.cps[i] === 0x3a && this.cps[i + 1] === 0x5d) return i;
    return -1;
  }

  private classChar(classStart: number): number {
    const c = this.peek();
    if (c === undefined) throw new SyntaxError_(ERR.missingBracket, this.text(classStart));
    if (c === 0x5c) return this.parseEscape(this.pos);
    this.pos++;
    return c;
  }
}

// ---------------------------------------------------------------------------------------------
// Program and Pike VM
// ---------------------------------------------------------------------------------------------

const OP_CHAR = 0;
const OP_SPLIT = 1;
const OP_JMP = 2;
const OP_MATCH = 3;
const OP_ASSERT = 4;

const MAX_PROGRAM = 1 << 20;

interface Program {
  op: number[];
  x: number[];
  y: number[];
  test: Array<((cp: number) => boolean) | undefined>;
  assertion: Array<Assertion | undefined>;
}

function compileProgram(root: Node, source: string): Program {
  const p: Program = { op: [], x: [], y: [], test: [], assertion: [] };
  const emit = (op: number, x = 0, y = 0, test?: (cp: number) => boolean, assertion?: Assertion): number => {
    if (p.op.length >= MAX_PROGRAM) throw new SyntaxError_(ERR.large, source);
    p.op.push(op);
    p.x.push(x);
    p.y.push(y);
    p.test.push(test);
    p.assertion.push(assertion);
    return p.op.length - 1;
  };
  // Iterative over an explicit stack of work items, so deeply nested patterns cannot exhaust the stack.
  const gen = (node: Node): void => {
    switch (node.op) {
      case 'empty':
        return;
      case 'char':
        emit(OP_CHAR, 0, 0, node.test);
        return;
      case 'assert':
        emit(OP_ASSERT, 0, 0, undefined, node.kind);
        return;
      case 'cat':
        for (const s of node.subs) gen(s);
        return;
      case 'alt': {
        const jumps: number[] = [];
        node.subs.forEach((s, i) => {
          if (i < node.subs.length - 1) {
            const split = emit(OP_SPLIT);
            p.x[split] = split + 1;
            gen(s);
            jumps.push(emit(OP_JMP));
            p.y[split] = p.op.length;
          } else gen(s);
        });
        for (const j of jumps) p.x[j] = p.op.length;
        return;
      }
      case 'rep': {
        const { sub, min, max } = node;
        for (let i = 0; i < min; i++) gen(sub);
        if (max === -1) {
          const split = emit(OP_SPLIT);
          p.x[split] = split + 1;
          gen(sub);
          const j = emit(OP_JMP);
          p.x[j] = split;
          p.y[split] = p.op.length;
        } else {
          const splits: number[] = [];
          for (let i = min; i < max; i++) {
            const split = emit(OP_SPLIT);
            p.x[split] = split + 1;
            splits.push(split);
            gen(sub);
          }
          for (const s of splits) p.y[s] = p.op.length;
        }
        return;
      }
    }
  };
  gen(root);
  emit(OP_MATCH);
  return p;
}

function isWordChar(cp: number | undefined): boolean {
  return cp !== undefined && (isAlnum(cp) || cp === 0x5f);
}

class CompiledRegexp implements GoRegexp {
  private readonly anchoredStart: boolean;

  constructor(
    readonly source: string,
    private readonly prog: Program,
  ) {
    this.anchoredStart = prog.op[0] === OP_ASSERT && prog.assertion[0] === 'bot';
  }

  test(s: string): boolean {
    const input: number[] = [];
    for (const ch of s) {
      const cp = ch.codePointAt(0)!;
      input.push(cp >= 0xd800 && cp <= 0xdfff ? 0xfffd : cp);
    }
    const prog = this.prog;
    const n = prog.op.length;
    let clist = new Int32Array(n);
    let nlist = new Int32Array(n);
    let ccount = 0;
    let ncount = 0;
    const mark = new Int32Array(n).fill(-1);
    const stack = new Int32Array(2 * n + 2);
    // Adds the thread at `pc` (and everything it reaches without consuming input) to a list.
    const add = (list: Int32Array, count: number, pc0: number, pos: number): number => {
      let sp = 0;
      stack[sp++] = pc0;
      while (sp > 0) {
        const pc = stack[--sp]!;
        if (mark[pc] === pos) continue;
        mark[pc] = pos;
        switch (prog.op[pc]) {
          case OP_JMP:
            stack[sp++] = prog.x[pc]!;
            break;
          case OP_SPLIT:
            stack[sp++] = prog.y[pc]!;
            stack[sp++] = prog.x[pc]!;
            break;
          case OP_ASSERT:
            if (this.holds(prog.assertion[pc]!, input, pos)) stack[sp++] = pc + 1;
            break;
          case OP_MATCH:
            return -1;
          default:
            list[count++] = pc;
        }
      }
      return count;
    };
    for (let pos = 0; pos <= input.length; pos++) {
      if (pos === 0 || !this.anchoredStart) {
        ccount = add(clist, ccount, 0, pos);
        if (ccount < 0) return true;
      }
      if (ccount === 0 && this.anchoredStart) return false;
      if (pos === input.length) break;
      const cp = input[pos]!;
      ncount = 0;
      for (let i = 0; i < ccount; i++) {
        const pc = clist[i]!;
        if (prog.test[pc]!(cp)) {
          ncount = add(nlist, ncount, pc + 1, pos + 1);
          if (ncount < 0) return true;
        }
      }
      const t = clist;
      clist = nlist;
      nlist = t;
      ccount = ncount;
    }
    return false;
  }

  private holds(kind: Assertion, input: number[], pos: number): boolean {
    switch (kind) {
      case 'bot':
        return pos === 0;
      case 'eot':
        return pos === input.length;
      case 'bol':
        return pos === 0 || input[pos - 1] === 0x0a;
      case 'eol':
        return pos === input.length || input[pos] === 0x0a;
      case 'wb':
        return isWordChar(input[pos - 1]) !== isWordChar(input[pos]);
      case 'nwb':
        return isWordChar(input[pos - 1]) === isWordChar(input[pos]);
    }
  }
}

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
    const tree = new Parser(pattern).parse();
    result = { ok: true, regexp: new CompiledRegexp(pattern, compileProgram(tree, pattern)) };
  } catch (e) {
    if (e instanceof SyntaxError_) result = { ok: false, error: e.message };
    else if (e instanceof RangeError) result = { ok: false, error: `error parsing regexp: ${ERR.nestingDepth}: \`${pattern}\`` };
    else throw e;
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(pattern, result);
  return result;
}
