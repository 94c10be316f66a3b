/**
 * The encoded lines of watch events, made once per event and shared by every HTTP watcher that
 * sends the same event in the same form. An event about a stored object hands every watcher the
 * same deep-frozen object, so its line (`{"type":...,"object":...}` in JSON, or its YAML
 * document) is the same for all of them: the first watcher to send it encodes it, the others
 * copy those bytes. Each watcher still gets bytes of its own (a reader of a Fetch body could
 * change the chunks it is handed), and only frozen objects are shared: an object made for one
 * watcher (a Table row, a BOOKMARK, an ERROR Status) is encoded for it alone.
 *
 * The lines are kept for the most recent events only ({@link SHARED_WATCH_LINES}): watchers read
 * an event at about the same time, and a watcher too far behind encodes it again, so the memory
 * held stays bounded however many objects are watched.
 */

/** How many recent event objects keep their encoded lines. */
export const SHARED_WATCH_LINES = 1024;

/** The lines made for one object: by format, then by event type. */
type LinesOf = Map<string, Uint8Array>;

const recent = new Map<object, LinesOf>();

/** Whether the line of an event about `object` may be shared between watchers. */
export function sharesWatchLine(type: string, object: unknown): object is object {
  return (type === 'ADDED' || type === 'MODIFIED' || type === 'DELETED') && typeof object === 'object' && object !== null && Object.isFrozen(object);
}

/**
 * The bytes of the line of a `type` event about the frozen `object` in `format`, a copy owned by
 * the caller: made with `encode` the first time, copied from then on.
 */
export function sharedWatchLine(type: string, object: object, format: string, encode: () => Uint8Array): Uint8Array {
  const key = `${format} ${type}`;
  let lines = recent.get(object);
  let bytes = lines?.get(key);
  if (bytes === undefined) {
    bytes = encode();
    if (!lines) {
      if (recent.size >= SHARED_WATCH_LINES) recent.delete(recent.keys().next().value!);
      recent.set(object, (lines = new Map()));
    }
    lines.set(key, bytes);
  }
  return bytes.slice();
}
