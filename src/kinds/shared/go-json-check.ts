/**
 * What Go's `json.Unmarshal(data, &map[string]interface{}{})` says about a byte string, word for
 * word: Kubernetes puts that error text into the validation message of docker config Secrets.
 * The syntax check follows the state machine of Go's `encoding/json` scanner, byte by byte.
 */

/** Go's `quoteChar`: the offending byte as a quoted character. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  // Go converts the byte to the rune of the same number (so 0xC3 prints as 'Ã').
  return `'${goQuoteRune(c)}'`;
}

/** The inside of Go's `strconv.Quote(string(rune(c)))` for c < 256. */
function goQuoteRune(c: number): string {
  switch (c) {
    case 0x07:
      return '\\a';
    case 0x08:
      return '\\b';
    case 0x0c:
      return '\\f';
    case 0x0a:
      return '\\n';
    case 0x0d:
      return '\\r';
    case 0x09:
      return '\\t';
    case 0x0b:
      return '\\v';
    case 0x5c:
      return '\\\\';
  }
  // Printable per Go's unicode.IsPrint: ASCII graphic and space, and Latin-1 from 0xA1 except the soft hyphen.
  if ((c >= 0x20 && c < 0x7f) || (c >= 0xa1 && c !== 0xad)) return String.fromCharCode(c);
  if (c < 0x80 || c === 0x7f) return `\\x${c.toString(16).padStart(2, '0')}`;
  return `\\u00${c.toString(16).padStart(2, '0')}`;
}

const MAX_NESTING = 10000;

type Kind = 'object' | 'array' | 'string' | 'number' | 'bool' | 'null';

/** Scans JSON like Go's `checkValid`; returns the syntax error text, or the top-level value's kind. */
function scan(bytes: Uint8Array): { error: string } | { kind: Kind } {
  let i = 0;
  const n = bytes.length;
  const stack: ('object' | 'array')[] = [];
  const err = (c: number, context: string) => ({ error: `invalid character ${quoteChar(c)} ${context}` });
  const eof = { error: 'unexpected end of JSON input' };
  const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
  const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
  const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
  let topKind: Kind | undefined;

  /** Parses one value starting at i (after whitespace); returns an error or undefined. */
  const skipSpace = () => {
    while (i < n && isSpace(bytes[i]!)) i++;
  };

  // Iterative parse: states are "expect value" and "after value".
  let expectValue = true;
  let objectKeyPending = false; // inside an object, the next string is a key
  for (;;) {
    skipSpace();
    if (expectValue) {
      if (i >= n) return eof;
      const c = bytes[i]!;
      const top = stack[stack.length - 1];
      if (objectKeyPending) {
        if (c !== 0x22) return err(c, 'looking for beginning of object key string');
      }
      let kind: Kind;
      if (c === 0x7b || c === 0x5b) {
        if (stack.length >= MAX_NESTING) return { error: 'exceeded max depth' };
        i++;
        const container = c === 0x7b ? 'object' : 'array';
        stack.push(container);
        topKind ??= container;
        skipSpace();
        if (i >= n) return eof;
        const close = container === 'object' ? 0x7d : 0x5d;
        if (bytes[i] === close) {
          i++;
          stack.pop();
          expectValue = false;
          objectKeyPending = false;
          continue;
        }
        objectKeyPending = container === 'object';
        continue;
      } else if (c === 0x22) {
        i++;
        for (;;) {
          if (i >= n) return eof;
          const s = bytes[i]!;
          if (s === 0x22) {
            i++;
            break;
          }
          if (s === 0x5c) {
            i++;
            if (i >= n) return eof;
            const e = bytes[i]!;
            if ('bfnrt\\/"'.includes(String.fromCharCode(e))) {
              i++;
            } else if (e === 0x75) {
              i++;
              for (let h = 0; h < 4; h++) {
                if (i >= n) return eof;
                if (!isHex(bytes[i]!)) return err(bytes[i]!, 'in \\u hexadecimal character escape');
                i++;
              }
            } else return err(e, 'in string escape code');
            continue;
          }
          if (s < 0x20) return err(s, 'in string literal');
          i++;
        }
        kind = 'string';
      } else if (c === 0x2d || isDigit(c)) {
        if (c === 0x2d) {
          i++;
          if (i >= n) return eof;
          if (!isDigit(bytes[i]!)) return err(bytes[i]!, 'in numeric literal');
        }
        if (bytes[i] === 0x30) i++;
        else while (i < n && isDigit(bytes[i]!)) i++;
        if (i < n && bytes[i] === 0x2e) {
          i++;
          if (i >= n) return eof;
          if (!isDigit(bytes[i]!)) return err(bytes[i]!, 'after decimal point in numeric literal');
          while (i < n && isDigit(bytes[i]!)) i++;
        }
        if (i < n && (bytes[i] === 0x65 || bytes[i] === 0x45)) {
          i++;
          if (i < n && (bytes[i] === 0x2b || bytes[i] === 0x2d)) i++;
          if (i >= n) return eof;
          if (!isDigit(bytes[i]!)) return err(bytes[i]!, 'in exponent of numeric literal');
          while (i < n && isDigit(bytes[i]!)) i++;
        }
        kind = 'number';
      } else if (c === 0x74 || c === 0x66 || c === 0x6e) {
        const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : 'null';
        i++;
        for (let k = 1; k < word.length; k++) {
          if (i >= n) return eof;
          if (bytes[i] !== word.charCodeAt(k)) return err(bytes[i]!, `in literal ${word} (expecting '${word[k]}')`);
          i++;
        }
        kind = word === 'null' ? 'null' : 'bool';
      } else {
        return err(c, 'looking for beginning of value');
      }
      topKind ??= kind;
      if (objectKeyPending && top === 'object') {
        // That string was a key: a colon and a value follow.
        objectKeyPending = false;
        skipSpace();
        if (i >= n) return eof;
        if (bytes[i] !== 0x3a) return err(bytes[i]!, 'after object key');
        i++;
        continue;
      }
      expectValue = false;
      continue;
    }
    // After a value.
    const top = stack[stack.length - 1];
    if (!top) {
      if (i < n) return err(bytes[i]!, 'after top-level value');
      return { kind: topKind ?? 'null' };
    }
    if (i >= n) return eof;
    const c = bytes[i]!;
    if (top === 'object') {
      if (c === 0x2c) {
        i++;
        expectValue = true;
        objectKeyPending = true;
      } else if (c === 0x7d) {
        i++;
        stack.pop();
      } else return err(c, 'after object key:value pair');
    } else {
      if (c === 0x2c) {
        i++;
        expectValue = true;
      } else if (c === 0x5d) {
        i++;
        stack.pop();
      } else return err(c, 'after array element');
    }
  }
}

/**
 * The error of `json.Unmarshal(bytes, &map[string]interface{}{})`, or undefined when it succeeds
 * (an object, or `null`).
 */
export function goUnmarshalObjectError(bytes: Uint8Array): string | undefined {
  const result = scan(bytes);
  if ('error' in result) return result.error;
  if (result.kind === 'object' || result.kind === 'null') return undefined;
  return `json: cannot unmarshal ${result.kind} into Go value of type map[string]interface {}`;
}

/** The syntax error Go's `encoding/json` reports for `bytes`, or undefined when they are one JSON value. */
export function goJsonSyntaxError(bytes: Uint8Array): string | undefined {
  const result = scan(bytes);
  return 'error' in result ? result.error : undefined;
}
