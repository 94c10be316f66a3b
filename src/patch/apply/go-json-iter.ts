/**
 * A small re-creation of the parts of json-iterator/go that read FieldsV1, so that malformed
 * managedFields fail with the very messages Kubernetes produces:
 * `ReadMapCB: expect { or n, but found [, error found in #8 byte of ...|{"f:a":[]}|..., bigger context ...|{"f:a":[]}|...`.
 *
 * Two modes, as in jsoniter: a byte buffer (`ParseBytes`, how SMD reads the `k:`/`v:` payload of
 * one path element) and a reader read in 4096-byte chunks (`Parse(reader, 4096)`, how
 * `Set.FromJSON` reads a whole FieldsV1 document). Only valid-JSON skipping, objects, strings,
 * numbers, booleans, null and arrays are needed.
 */

const EOF = Symbol('EOF');

/** Thrown to abandon parsing once a (sticky, non-EOF) error is recorded. */
class Abort extends Error {}

/** jsoniter's ValueType. */
export const enum ValueType {
  Invalid = 0,
  String = 1,
  Number = 2,
  Nil = 3,
  Bool = 4,
  Array = 5,
  Object = 6,
}

function valueTypeOf(c: number): ValueType {
  if (c === 0x22) return ValueType.String;
  if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return ValueType.Number;
  if (c === 0x74 || c === 0x66) return ValueType.Bool;
  if (c === 0x6e) return ValueType.Nil;
  if (c === 0x5b) return ValueType.Array;
  if (c === 0x7b) return ValueType.Object;
  return ValueType.Invalid;
}

const END_OF_NUMBER = new Set([0x2c, 0x5d, 0x7d, 0x20, 0x09, 0x0a]);
const NUMBER_CHARS = new Set([0x2b, 0x2d, 0x2e, 0x65, 0x45, 0x30, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39]);
const MAX_DEPTH = 10000;

const decoder = new TextDecoder('utf-8', { fatal: false });
const encoder = new TextEncoder();

function byteChar(c: number): string {
  return decoder.decode(new Uint8Array([c]));
}

function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** Go's `strconv.ParseFloat` syntax (after jsoniter's own validation). */
const GO_FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Go's `%q` of an ASCII-ish string, enough for strconv error messages. */
function quoteForStrconv(s: string): string {
  return JSON.stringify(s);
}

/** A jsoniter Iterator over UTF-8 bytes. */
export class GoJsonIter {
  private readonly all: Uint8Array;
  private readonly chunkSize: number | undefined;
  private nextOffset = 0;
  private buf: Uint8Array;
  private head = 0;
  private tail = 0;
  private depth = 0;
  /** The recorded error: `null`, EOF, or a message. */
  private err: string | typeof EOF | null = null;

  private constructor(all: Uint8Array, chunkSize?: number) {
    this.all = all;
    this.chunkSize = chunkSize;
    if (chunkSize === undefined) {
      this.buf = all;
      this.tail = all.length;
    } else {
      this.buf = new Uint8Array(0);
    }
  }

  /** `ParseBytes`: a buffer iterator. */
  static bytes(s: string | Uint8Array): GoJsonIter {
    return new GoJsonIter(typeof s === 'string' ? encoder.encode(s) : s);
  }

  /** `Parse(reader, 4096)`: a reader iterator. */
  static reader(s: string, chunkSize = 4096): GoJsonIter {
    return new GoJsonIter(encoder.encode(s), chunkSize);
  }

  /** The error message, or `undefined` (EOF is not an error). */
  get error(): string | undefined {
    return typeof this.err === 'string' ? this.err : undefined;
  }

  get atEOF(): boolean {
    return this.err === EOF;
  }

  /** Runs `fn`, turning an abandoned parse into its recorded error. */
  run<T>(fn: () => T): { value?: T; error?: string } {
    try {
      return { value: fn(), ...(this.error ? { error: this.error } : {}) };
    } catch (e) {
      if (e instanceof Abort) return { error: this.error ?? 'parse error' };
      throw e;
    }
  }

  reportError(operation: string, msg: string): never | void {
    if (this.err !== null && this.err !== EOF) throw new Abort();
    const peekStart = Math.max(0, this.head - 10);
    const peekEnd = Math.min(this.tail, this.head + 10);
    const parsing = decoder.decode(this.buf.subarray(peekStart, peekEnd));
    const contextStart = Math.max(0, this.head - 50);
    const contextEnd = Math.min(this.tail, this.head + 50);
    const context = decoder.decode(this.buf.subarray(contextStart, contextEnd));
    this.err = `${operation}: ${msg}, error found in #${this.head - peekStart} byte of ...|${parsing}|..., bigger context ...|${context}|...`;
    throw new Abort();
  }

  /** Records an error verbatim (jsoniter's `iter.Error = err`). */
  private setError(message: string): never {
    this.err = message;
    throw new Abort();
  }

  private loadMore(): boolean {
    if (this.chunkSize === undefined) {
      if (this.err === null) {
        this.head = this.tail;
        this.err = EOF;
      }
      return false;
    }
    if (this.nextOffset >= this.all.length) {
      if (this.err === null) this.err = EOF;
      return false;
    }
    this.buf = this.all.subarray(this.nextOffset, this.nextOffset + this.chunkSize);
    this.head = 0;
    this.tail = this.buf.length;
    this.nextOffset += this.tail;
    return true;
  }

  nextToken(): number {
    for (;;) {
      for (let i = this.head; i < this.tail; i++) {
        const c = this.buf[i]!;
        if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) continue;
        this.head = i + 1;
        return c;
      }
      if (!this.loadMore()) return 0;
    }
  }

  private readByte(): number {
    if (this.head === this.tail) {
      if (this.loadMore()) return this.buf[this.head++]!;
      return 0;
    }
    return this.buf[this.head++]!;
  }

  unreadByte(): void {
    if (this.err !== null) return;
    this.head--;
  }

  whatIsNext(): ValueType {
    const t = valueTypeOf(this.nextToken());
    this.unreadByte();
    return t;
  }

  private incrementDepth(): void {
    this.depth++;
    if (this.depth > MAX_DEPTH) this.reportError('incrementDepth', 'exceeded max depth');
  }

  private decrementDepth(): void {
    this.depth--;
    if (this.depth < 0) this.reportError('decrementDepth', 'unexpected negative nesting');
  }

  private skipBytes(op: string, expected: number[]): void {
    const text = String.fromCharCode(...expected);
    for (const b of expected) {
      if (this.readByte() !== b) this.reportError(op, `expect ${text}`);
    }
  }

  private skipThreeBytes(a: number, b: number, c: number): void {
    const text = String.fromCharCode(a, b, c);
    for (const x of [a, b, c]) if (this.readByte() !== x) this.reportError('skipThreeBytes', `expect ${text}`);
  }

  private skipFourBytes(a: number, b: number, c: number, d: number): void {
    this.skipBytes('skipFourBytes', [a, b, c, d]);
  }

  /** `ReadString`. */
  readString(): string {
    const c = this.nextToken();
    if (c === 0x22) {
      for (let i = this.head; i < this.tail; i++) {
        const b = this.buf[i]!;
        if (b === 0x22) {
          const ret = decoder.decode(this.buf.subarray(this.head, i));
          this.head = i + 1;
          return ret;
        } else if (b === 0x5c) {
          break;
        } else if (b < 0x20) {
          this.reportError('ReadString', `invalid control character found: ${b}`);
        }
      }
      return this.readStringSlowPath();
    } else if (c === 0x6e) {
      this.skipThreeBytes(0x75, 0x6c, 0x6c);
      return '';
    }
    this.reportError('ReadString', `expects " or n, but found ${byteChar(c)}`);
    return '';
  }

  private readStringSlowPath(): string {
    const out: number[] = [];
    while (this.err === null) {
      const c = this.readByte();
      if (c === 0x22) return decoder.decode(new Uint8Array(out));
      if (c === 0x5c) this.readEscapedChar(this.readByte(), out);
      else out.push(c);
    }
    this.reportError('readStringSlowPath', 'unexpected end of input');
    return '';
  }

  private appendRune(out: number[], r: number): void {
    const cp = r >= 0xd800 && r <= 0xdfff ? 0xfffd : r;
    out.push(...encoder.encode(String.fromCodePoint(cp)));
  }

  private readU4(): number {
    let ret = 0;
    for (let i = 0; i < 4; i++) {
      const c = this.readByte();
      if (this.err !== null) return ret;
      if (c >= 0x30 && c <= 0x39) ret = ret * 16 + (c - 0x30);
      else if (c >= 0x61 && c <= 0x66) ret = ret * 16 + (c - 0x61 + 10);
      else if (c >= 0x41 && c <= 0x46) ret = ret * 16 + (c - 0x41 + 10);
      else this.reportError('readU4', `expects 0~9 or a~f, but found ${byteChar(c)}`);
    }
    return ret;
  }

  private readEscapedChar(c: number, out: number[]): void {
    switch (c) {
      case 0x75: {
        const r = this.readU4();
        if (r >= 0xd800 && r <= 0xdfff) {
          let n = this.readByte();
          if (this.err !== null) return;
          if (n !== 0x5c) {
            this.unreadByte();
            this.appendRune(out, r);
            return;
          }
          n = this.readByte();
          if (this.err !== null) return;
          if (n !== 0x75) {
            this.appendRune(out, r);
            this.readEscapedChar(n, out);
            return;
          }
          const r2 = this.readU4();
          if (this.err !== null) return;
          if (r < 0xdc00 && r2 >= 0xdc00 && r2 <= 0xdfff) {
            this.appendRune(out, 0x10000 + ((r - 0xd800) << 10) + (r2 - 0xdc00));
          } else {
            this.appendRune(out, r);
            this.appendRune(out, r2);
          }
        } else {
          this.appendRune(out, r);
        }
        return;
      }
      case 0x22:
      case 0x5c:
      case 0x2f:
        out.push(c);
        return;
      case 0x62:
        out.push(0x08);
        return;
      case 0x66:
        out.push(0x0c);
        return;
      case 0x6e:
        out.push(0x0a);
        return;
      case 0x72:
        out.push(0x0d);
        return;
      case 0x74:
        out.push(0x09);
        return;
      default:
        this.reportError('readEscapedChar', 'invalid escape char after \\');
    }
  }

  private readNumberAsString(): string {
    const out: number[] = [];
    loop: for (;;) {
      for (let i = this.head; i < this.tail; i++) {
        const c = this.buf[i]!;
        if (NUMBER_CHARS.has(c)) {
          out.push(c);
          continue;
        }
        this.head = i;
        break loop;
      }
      if (!this.loadMore()) break;
    }
    if (this.err !== null && this.err !== EOF) throw new Abort();
    if (out.length === 0) this.reportError('readNumberAsString', 'invalid number');
    return String.fromCharCode(...out);
  }

  private readFloat64SlowPath(): number {
    const str = this.readNumberAsString();
    let msg = '';
    if (str.length === 0) msg = 'empty number';
    else if (str[0] === '-') msg = '-- is not valid';
    else {
      const dot = str.indexOf('.');
      if (dot !== -1) {
        if (dot === str.length - 1) msg = 'dot can not be last character';
        else if (!isDigit(str.charCodeAt(dot + 1))) msg = 'missing digit after dot';
      }
    }
    if (msg) this.reportError('readFloat64SlowPath', msg);
    if (!GO_FLOAT.test(str)) this.setError(`strconv.ParseFloat: parsing ${quoteForStrconv(str)}: invalid syntax`);
    const v = Number(str);
    if (!Number.isFinite(v)) this.setError(`strconv.ParseFloat: parsing ${quoteForStrconv(str)}: value out of range`);
    return v;
  }

  private readPositiveFloat64(): number {
    let i = this.head;
    if (i === this.tail) return this.readFloat64SlowPath();
    let c = this.buf[i]!;
    i++;
    if (c === 0x2e) this.reportError('readFloat64', 'leading dot is invalid');
    if (END_OF_NUMBER.has(c)) this.reportError('readFloat64', 'empty number');
    if (!isDigit(c)) return this.readFloat64SlowPath();
    if (c === 0x30) {
      if (i === this.tail) return this.readFloat64SlowPath();
      if (isDigit(this.buf[i])) this.reportError('readFloat64', 'leading zero is invalid');
    }
    let digits = String.fromCharCode(c);
    for (; i < this.tail; i++) {
      c = this.buf[i]!;
      if (END_OF_NUMBER.has(c)) {
        this.head = i;
        return Number(digits);
      }
      if (c === 0x2e) break;
      if (!isDigit(c)) return this.readFloat64SlowPath();
      digits += String.fromCharCode(c);
    }
    if (c === 0x2e && i < this.tail) {
      i++;
      if (i === this.tail) return this.readFloat64SlowPath();
      let places = 0;
      let frac = '';
      for (; i < this.tail; i++) {
        c = this.buf[i]!;
        if (END_OF_NUMBER.has(c)) {
          if (places > 0 && places < 7) {
            this.head = i;
            return Number(`${digits}.${frac}`);
          }
          return this.readFloat64SlowPath();
        }
        if (!isDigit(c)) return this.readFloat64SlowPath();
        places++;
        frac += String.fromCharCode(c);
      }
    }
    return this.readFloat64SlowPath();
  }

  /** `ReadFloat64`. */
  readFloat64(): number {
    const c = this.nextToken();
    if (c === 0x2d) return -this.readPositiveFloat64();
    this.unreadByte();
    return this.readPositiveFloat64();
  }

  /** `ReadBool`. */
  readBool(): boolean {
    const c = this.nextToken();
    if (c === 0x74) {
      this.skipThreeBytes(0x72, 0x75, 0x65);
      return true;
    }
    if (c === 0x66) {
      this.skipFourBytes(0x61, 0x6c, 0x73, 0x65);
      return false;
    }
    this.reportError('ReadBool', `expect t or f, but found ${byteChar(c)}`);
    return false;
  }

  /** `ReadMapCB` (or `ReadObjectCB` with `op` set accordingly). */
  readMapCB(callback: (field: string) => boolean, op: 'ReadMapCB' | 'ReadObjectCB' = 'ReadMapCB'): boolean {
    const colonOp = op === 'ReadMapCB' ? 'ReadMapCB' : 'ReadObject';
    let c = this.nextToken();
    if (c === 0x7b) {
      this.incrementDepth();
      c = this.nextToken();
      if (c === 0x22) {
        this.unreadByte();
        let field = this.readString();
        if (this.nextToken() !== 0x3a) this.reportError(colonOp, `expect : after object field, but found ${byteChar(c)}`);
        if (!callback(field)) {
          this.decrementDepth();
          return false;
        }
        c = this.nextToken();
        while (c === 0x2c) {
          field = this.readString();
          if (this.nextToken() !== 0x3a) this.reportError(colonOp, `expect : after object field, but found ${byteChar(c)}`);
          if (!callback(field)) {
            this.decrementDepth();
            return false;
          }
          c = this.nextToken();
        }
        if (c !== 0x7d) this.reportError(op, 'object not ended with }');
        this.decrementDepth();
        return true;
      }
      if (c === 0x7d) {
        this.decrementDepth();
        return true;
      }
      this.reportError(op, `expect " after {, but found ${byteChar(c)}`);
    }
    if (c === 0x6e) {
      this.skipThreeBytes(0x75, 0x6c, 0x6c);
      return true;
    }
    this.reportError(op, `expect { or n, but found ${byteChar(c)}`);
    return false;
  }

  /** `ReadArrayCB`. */
  readArrayCB(callback: () => boolean): boolean {
    let c = this.nextToken();
    if (c === 0x5b) {
      this.incrementDepth();
      c = this.nextToken();
      if (c !== 0x5d) {
        this.unreadByte();
        if (!callback()) {
          this.decrementDepth();
          return false;
        }
        c = this.nextToken();
        while (c === 0x2c) {
          if (!callback()) {
            this.decrementDepth();
            return false;
          }
          c = this.nextToken();
        }
        if (c !== 0x5d) this.reportError('ReadArrayCB', `expect ] in the end, but found ${byteChar(c)}`);
      }
      this.decrementDepth();
      return true;
    }
    if (c === 0x6e) {
      this.skipThreeBytes(0x75, 0x6c, 0x6c);
      return true;
    }
    this.reportError('ReadArrayCB', `expect [ or n, but found ${byteChar(c)}`);
    return false;
  }

  /** `Read`: the next value as a plain JSON value. */
  read(): unknown {
    const t = this.whatIsNext();
    switch (t) {
      case ValueType.String:
        return this.readString();
      case ValueType.Number:
        return this.readFloat64();
      case ValueType.Nil:
        this.skipFourBytes(0x6e, 0x75, 0x6c, 0x6c);
        return null;
      case ValueType.Bool:
        return this.readBool();
      case ValueType.Array: {
        const arr: unknown[] = [];
        this.readArrayCB(() => {
          arr.push(this.read());
          return true;
        });
        return arr;
      }
      case ValueType.Object: {
        const obj: Record<string, unknown> = {};
        this.readMapCB((field) => {
          Object.defineProperty(obj, field, { value: this.read(), enumerable: true, writable: true, configurable: true });
          return true;
        });
        return obj;
      }
      default:
        this.reportError('Read', `unexpected value type: ${t}`);
        return undefined;
    }
  }

  /** `Skip` (the input is valid JSON wherever the FieldsV1 reader skips). */
  skip(): void {
    const t = this.whatIsNext();
    switch (t) {
      case ValueType.Object:
        this.readMapCB(() => {
          this.skip();
          return true;
        }, 'ReadObjectCB');
        return;
      case ValueType.Array:
        this.readArrayCB(() => {
          this.skip();
          return true;
        });
        return;
      case ValueType.Invalid: {
        const c = this.nextToken();
        this.reportError('Skip', `do not know how to skip: ${c}`);
        return;
      }
      default:
        this.read();
    }
  }

  /**
   * The trailing-data check SMD runs after a value: fine at the end of input, otherwise
   * `managedFields parsing: unexpected trailing data after JSON object`.
   */
  expectEnd(): void {
    this.whatIsNext();
    if (this.err !== EOF) {
      if (this.err === null) this.reportError('managedFields parsing', 'unexpected trailing data after JSON object');
      throw new Abort();
    }
  }
}
