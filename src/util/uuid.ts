/**
 * Random (version 4) UUIDs as flat strings. `crypto.randomUUID` builds its string from about twenty
 * concatenated pieces (some 600 bytes until V8 flattens it); the uid of every stored object and the
 * Audit-ID of every request are made here instead: the hex digits are written into a buffer of
 * bytes, read back as one string of 36 characters.
 */
import { randomFillSync } from 'node:crypto';

/** Random bytes for this many UUIDs are drawn at once. */
const BATCH = 256;
const pool = Buffer.allocUnsafe(16 * BATCH);
let next = pool.length;
const text = Buffer.allocUnsafe(36);
const HEX = Buffer.from('0123456789abcdef', 'latin1');

/** A random version 4 UUID (RFC 9562), lower case: `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`. */
export function randomUuid(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  let at = 0;
  for (let i = 0; i < 16; i++) {
    let byte = pool[next + i]!;
    // The version (4) in the high nibble of byte 6, the variant (10) in the top bits of byte 8.
    if (i === 6) byte = (byte & 0x0f) | 0x40;
    else if (i === 8) byte = (byte & 0x3f) | 0x80;
    if (i === 4 || i === 6 || i === 8 || i === 10) text[at++] = 0x2d;
    text[at++] = HEX[byte >> 4]!;
    text[at++] = HEX[byte & 0x0f]!;
  }
  next += 16;
  return text.toString('latin1', 0, 36);
}
