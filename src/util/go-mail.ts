/**
 * Whether Go's `net/mail.ParseAddress` accepts a text (one RFC 5322 address: `user@example.com`,
 * `Name <user@example.com>`, `"quoted local"@[192.0.2.1]`, comments in parentheses), for the
 * `email` format. A port of its parser's acceptance; RFC 2047 encoded words in a display name are
 * taken as plain atoms (Go fails only on an unsupported charset there).
 */
import { isGoIP } from './go-net.js';

class MailError extends Error {}

const isWSP = (c: number) => c === 0x20 || c === 0x09;
const isVchar = (c: number) => (c >= 0x21 && c <= 0x7e) || c >= 0x80;
const isQtext = (c: number) => c !== 0x5c && c !== 0x22 && isVchar(c);
const isDtext = (c: number) => c !== 0x5b && c !== 0x5d && c !== 0x5c && isVchar(c);

/** RFC 5322 atext (with `.` when `dot`), as Go's `isAtext`. */
function isAtext(c: number, dot: boolean): boolean {
  if (c === 0x2e) return dot;
  if ('()<>[]:;@\\,"'.includes(String.fromCharCode(c)) && c < 0x80) return false;
  return isVchar(c);
}

class AddrParser {
  /** Code points; a lone surrogate (invalid UTF-8 for Go) is -1. */
  private s: number[];

  constructor(text: string) {
    this.s = Array.from(text, (ch) => {
      const cp = ch.codePointAt(0)!;
      return cp >= 0xd800 && cp <= 0xdfff ? -1 : cp;
    });
  }

  private empty(): boolean {
    return this.s.length === 0;
  }

  private peek(): number | undefined {
    return this.s[0];
  }

  private consume(c: number): boolean {
    if (this.s[0] !== c) return false;
    this.s = this.s.slice(1);
    return true;
  }

  private skipSpace(): void {
    let i = 0;
    while (i < this.s.length && isWSP(this.s[i]!)) i++;
    if (i) this.s = this.s.slice(i);
  }

  private skipCFWS(): boolean {
    this.skipSpace();
    while (this.consume(0x28)) {
      if (!this.consumeComment()) return false;
      this.skipSpace();
    }
    return true;
  }

  /** After `(`: the comment up to its matching `)`; false when unclosed. */
  private consumeComment(): boolean {
    let depth = 1;
    while (!this.empty() && depth > 0) {
      const c = this.s[0]!;
      if (c === 0x5c && this.s.length > 1) this.s = this.s.slice(1);
      else if (c === 0x28) depth++;
      else if (c === 0x29) depth--;
      this.s = this.s.slice(1);
    }
    return depth === 0;
  }

  parseSingleAddress(): void {
    const count = this.parseAddress(true);
    if (!this.skipCFWS()) throw new MailError();
    if (!this.empty()) throw new MailError();
    if (count !== 1) throw new MailError();
  }

  /** Parses one address (or a group when `handleGroup`); answers how many addresses it held. */
  private parseAddress(handleGroup: boolean): number {
    this.skipSpace();
    if (this.empty()) throw new MailError();
    const saved = this.s;
    try {
      this.consumeAddrSpec();
      this.skipSpace();
      if (this.peek() === 0x28) this.consumeDisplayNameComment();
      return 1;
    } catch (e) {
      if (!(e instanceof MailError)) throw e;
      this.s = saved;
    }
    if (this.peek() !== 0x3c) this.consumePhrase();
    this.skipSpace();
    if (handleGroup && this.consume(0x3a)) return this.consumeGroupList();
    if (!this.consume(0x3c)) throw new MailError();
    this.consumeAddrSpec();
    if (!this.consume(0x3e)) throw new MailError();
    return 1;
  }

  private consumeGroupList(): number {
    let count = 0;
    this.skipSpace();
    if (this.consume(0x3b)) {
      if (!this.skipCFWS()) throw new MailError();
      return 0;
    }
    for (;;) {
      this.skipSpace();
      count += this.parseAddress(false);
      if (!this.skipCFWS()) throw new MailError();
      if (this.consume(0x3b)) {
        if (!this.skipCFWS()) throw new MailError();
        return count;
      }
      if (!this.consume(0x2c)) throw new MailError();
    }
  }

  private consumeAddrSpec(): void {
    const orig = this.s;
    try {
      this.skipSpace();
      if (this.empty()) throw new MailError();
      if (this.peek() === 0x22) {
        if (this.consumeQuotedString() === 0) throw new MailError();
      } else this.consumeAtom(true, false);
      if (!this.consume(0x40)) throw new MailError();
      this.skipSpace();
      if (this.empty()) throw new MailError();
      if (this.peek() === 0x5b) this.consumeDomainLiteral();
      else this.consumeAtom(true, false);
    } catch (e) {
      this.s = orig;
      throw e;
    }
  }

  private consumePhrase(): void {
    let words = 0;
    for (;;) {
      if (words > 0 && !this.skipCFWS()) throw new MailError();
      this.skipSpace();
      if (this.empty()) break;
      try {
        if (this.peek() === 0x22) this.consumeQuotedString();
        else this.consumeAtom(true, true);
      } catch (e) {
        if (!(e instanceof MailError)) throw e;
        break;
      }
      words++;
    }
    if (words === 0) throw new MailError();
  }

  /** Consumes a quoted string; answers the length of its content. */
  private consumeQuotedString(): number {
    let i = 1;
    let length = 0;
    let escaped = false;
    for (;;) {
      const c = this.s[i];
      if (c === undefined || c === -1) throw new MailError();
      if (escaped) {
        if (!isVchar(c) && !isWSP(c)) throw new MailError();
        length++;
        escaped = false;
      } else if (isQtext(c) || isWSP(c)) length++;
      else if (c === 0x22) break;
      else if (c === 0x5c) escaped = true;
      else throw new MailError();
      i++;
    }
    this.s = this.s.slice(i + 1);
    return length;
  }

  private consumeAtom(dot: boolean, permissive: boolean): void {
    let i = 0;
    for (; i < this.s.length; i++) {
      const c = this.s[i]!;
      if (c === -1) throw new MailError();
      if (!isAtext(c, dot)) break;
    }
    if (i === 0) throw new MailError();
    const atom = this.s.slice(0, i);
    this.s = this.s.slice(i);
    if (!permissive) {
      if (atom[0] === 0x2e || atom[atom.length - 1] === 0x2e) throw new MailError();
      for (let k = 1; k < atom.length; k++) if (atom[k] === 0x2e && atom[k - 1] === 0x2e) throw new MailError();
    }
  }

  private consumeDomainLiteral(): void {
    if (!this.consume(0x5b)) throw new MailError();
    let dtext = '';
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new MailError();
      if (c === 0x5d) break;
      if (c === -1 || !isDtext(c)) throw new MailError();
      dtext += String.fromCodePoint(c);
      this.s = this.s.slice(1);
    }
    this.consume(0x5d);
    if (dtext.startsWith('IPv6:')) {
      const addr = dtext.slice(5);
      if (!isGoIP(addr)) throw new MailError();
    } else if (!isGoIP(dtext) || !isIPv4Shaped(dtext)) throw new MailError();
  }

  private consumeDisplayNameComment(): void {
    if (!this.consume(0x28)) throw new MailError();
    if (!this.consumeComment()) throw new MailError();
  }
}

/** `net.ParseIP(s).To4() != nil` for a text `net.ParseIP` accepts: IPv4, or IPv4-mapped IPv6. */
function isIPv4Shaped(s: string): boolean {
  if (!s.includes(':')) return true;
  return /^(0{0,4}:){0,5}(:|(0{0,4}:))?ffff:/i.test(s);
}

/** Go's `mail.ParseAddress(s)` succeeds (and yields a non-empty address, which it always does then). */
export function isGoMailAddress(s: string): boolean {
  try {
    new AddrParser(s).parseSingleAddress();
    return true;
  } catch (e) {
    if (e instanceof MailError) return false;
    throw e;
  }
}
