/**
 * The text a client wrote for a scalar, where a parsed value forgets it. Go keeps more of a
 * JSON body than `JSON.parse` does, and two Kubernetes code paths can tell:
 *
 * - evanphx/json-patch compares a `test` operation's scalars by their raw bytes, so `80.0` is
 *   not `80`, `"\u0061"` is not `"a"`, and `"a<b"` is not the stored `"a\u003cb"`;
 * - `sigs.k8s.io/json` (`PreserveInts`) decodes a patch's numbers written with a `.` or an
 *   exponent (or beyond int64) as float64, the others as int64, and Go's `==` never finds a
 *   float64 equal to an int64: a strategic merge key `80.0` matches no live `80`.
 *
 * The JSON decoder records, beside the parsed value, the raw text of every scalar whose text is
 * not what `JSON.stringify` writes for its value (escapes, number spellings), keyed by the
 * object or array holding it and the member name or index. Values without a record (most of
 * them, and every value built in process) stand for `JSON.stringify`'s text, which is what a
 * JavaScript client sends. A record is used only while it still spells the value it sits beside,
 * so a holder edited afterwards cannot be misread.
 */

type Holder = object;
type Slot = string | number;

const records = new WeakMap<Holder, Map<Slot, string>>();

/** Records `raw` as the text of the scalar at `holder[slot]`, or forgets the record (`undefined`). */
export function setRawText(holder: Holder, slot: Slot, raw: string | undefined): void {
  let m = records.get(holder);
  if (raw === undefined) {
    m?.delete(slot);
    return;
  }
  if (!m) records.set(holder, (m = new Map()));
  m.set(slot, raw);
}

/** Forgets every record of `holder` itself (not of the containers it holds). */
export function clearRawTexts(holder: Holder): void {
  records.delete(holder);
}

/** True when `holder` has records (a quick test before walking). */
export function hasRawTexts(holder: Holder): boolean {
  return records.has(holder);
}

/** The records of `holder`, by member name or index (for copying them onto a clone). */
export function rawTextsOf(holder: Holder): ReadonlyMap<Slot, string> | undefined {
  return records.get(holder);
}

/** Whether `raw` is JSON text of the scalar `value` (so the record has not gone stale). */
function spells(raw: string, value: unknown): boolean {
  switch (typeof value) {
    case 'number':
      return raw.charCodeAt(0) !== 0x22 && Number(raw) === value;
    case 'string':
      if (raw.charCodeAt(0) !== 0x22) return false;
      try {
        return JSON.parse(raw) === value;
      } catch {
        return false;
      }
    default:
      return false;
  }
}

/**
 * The raw text recorded for the scalar `value` at `holder[slot]`, or `undefined` when the text is
 * what `JSON.stringify(value)` writes.
 */
export function rawTextOf(holder: Holder, slot: Slot, value: unknown): string | undefined {
  const raw = records.get(holder)?.get(slot);
  return raw !== undefined && spells(raw, value) ? raw : undefined;
}

/** The text the client wrote for the scalar `value` at `holder[slot]`. */
export function writtenText(holder: Holder | undefined, slot: Slot, value: unknown): string {
  const raw = holder === undefined ? undefined : rawTextOf(holder, slot, value);
  return raw ?? JSON.stringify(value) ?? 'null';
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/**
 * Whether `sigs.k8s.io/json` with `PreserveInts` decodes the number literal `raw` as float64:
 * it contains a `.`, or does not parse as an int64 (`1e2`, `9223372036854775808`).
 */
export function isFloatLiteral(raw: string): boolean {
  if (raw.includes('.') || !/^-?[0-9]+$/.test(raw)) return true;
  const n = BigInt(raw);
  return n < INT64_MIN || n > INT64_MAX;
}

/** Whether the number at `holder[slot]` was written as a literal Go decodes as float64 (see {@link isFloatLiteral}). */
export function writtenAsFloat(holder: Holder, slot: Slot, value: number): boolean {
  const raw = rawTextOf(holder, slot, value);
  return raw !== undefined && isFloatLiteral(raw);
}
