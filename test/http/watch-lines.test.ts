/**
 * The line of a watch event about a stored (frozen) object is encoded once and shared by every
 * HTTP watcher sending it in the same form; each watcher gets bytes of its own, and objects made
 * for one watcher are never shared.
 */
import { describe, expect, it } from 'vitest';
import { WatchChannel } from '../../src/api/watch/channel.js';
import { SHARED_WATCH_LINES, sharedWatchLine, sharesWatchLine } from '../../src/http/watch-lines.js';
import { watchResponse } from '../../src/http/watch.js';
import type { WatchEvent } from '../../src/machinery/request.js';

const stored = () => Object.freeze({ kind: 'ConfigMap', apiVersion: 'v1', metadata: Object.freeze({ name: 'a', resourceVersion: '7' }) });

/** The first chunk of a watch body over `channel`. */
async function firstChunk(channel: WatchChannel, format: 'json' | 'yaml' = 'json', transform?: (e: WatchEvent) => unknown): Promise<Uint8Array> {
  const res = watchResponse(channel, { contentType: 'application/json', format, transform });
  const reader = res.body!.getReader();
  const { value } = await reader.read();
  await reader.cancel();
  return value!;
}

describe('shared watch lines', () => {
  it('encode an event about a frozen object once, and hand every caller a copy of its own', () => {
    const object = stored();
    let encoded = 0;
    const encode = () => {
      encoded++;
      return new TextEncoder().encode('line\n');
    };
    const one = sharedWatchLine('ADDED', object, 'json', encode);
    const two = sharedWatchLine('ADDED', object, 'json', encode);
    expect(encoded).toBe(1);
    expect(two).toEqual(one);
    one[0] = 0x21;
    expect(new TextDecoder().decode(two)).toBe('line\n');
    expect(new TextDecoder().decode(sharedWatchLine('ADDED', object, 'json', encode))).toBe('line\n');
    sharedWatchLine('MODIFIED', object, 'json', encode);
    sharedWatchLine('ADDED', object, 'yaml', encode);
    expect(encoded).toBe(3);
  });

  it('share only object events about frozen objects', () => {
    expect(sharesWatchLine('ADDED', stored())).toBe(true);
    expect(sharesWatchLine('DELETED', stored())).toBe(true);
    expect(sharesWatchLine('MODIFIED', { metadata: {} })).toBe(false);
    expect(sharesWatchLine('BOOKMARK', stored())).toBe(false);
    expect(sharesWatchLine('ERROR', stored())).toBe(false);
  });

  it(`keep the lines of the last ${SHARED_WATCH_LINES} objects only`, () => {
    const object = stored();
    let encoded = 0;
    const encode = () => {
      encoded++;
      return new Uint8Array([0x0a]);
    };
    sharedWatchLine('ADDED', object, 'json', encode);
    for (let i = 0; i < SHARED_WATCH_LINES; i++) sharedWatchLine('ADDED', stored(), 'json', () => new Uint8Array([0x0a]));
    sharedWatchLine('ADDED', object, 'json', encode);
    expect(encoded).toBe(2);
  });

  it('give two HTTP watchers of the same event the same bytes, each its own, in JSON and YAML', async () => {
    for (const format of ['json', 'yaml'] as const) {
      const object = stored();
      const a = new WatchChannel(10);
      const b = new WatchChannel(10);
      a.push({ type: 'ADDED', object });
      b.push({ type: 'ADDED', object });
      const ca = await firstChunk(a, format);
      const cb = await firstChunk(b, format);
      const expected =
        format === 'json'
          ? `${JSON.stringify({ type: 'ADDED', object })}\n`
          : '---\ntype: ADDED\nobject:\n  kind: ConfigMap\n  apiVersion: v1\n  metadata:\n    name: a\n    resourceVersion: "7"\n';
      expect(new TextDecoder().decode(ca)).toBe(expected);
      expect(cb).toEqual(ca);
      ca.fill(0x20);
      expect(new TextDecoder().decode(cb)).toBe(expected);
    }
  });

  it('encode a transformed object (a Table row) for its watcher alone', async () => {
    const object = stored();
    const a = new WatchChannel(10);
    const b = new WatchChannel(10);
    a.push({ type: 'ADDED', object });
    b.push({ type: 'ADDED', object });
    const plain = new TextDecoder().decode(await firstChunk(a));
    const table = new TextDecoder().decode(await firstChunk(b, 'json', () => Object.freeze({ kind: 'Table' })));
    expect(JSON.parse(plain)).toEqual({ type: 'ADDED', object });
    expect(JSON.parse(table)).toEqual({ type: 'ADDED', object: { kind: 'Table' } });
  });
});
