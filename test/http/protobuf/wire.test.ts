import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeMessage, MAX_DEPTH } from '../../../src/http/protobuf/messages.js';
import { decodeProtobufObject, UnknownProtobufKindError } from '../../../src/http/protobuf/envelope.js';
import { ProtobufError, WireReader } from '../../../src/http/protobuf/wire.js';
import { encode, envelope, int, msg, str, varint } from './writer.js';

const bytes = (...b: number[]) => Uint8Array.from(b);

describe('WireReader', () => {
  it('reads varints up to 64 bits', () => {
    for (const v of [0n, 1n, 127n, 128n, 300n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 1n]) {
      expect(new WireReader(Uint8Array.from(varint(v))).varint()).toBe(v);
    }
  });

  it('refuses a truncated varint', () => {
    expect(() => new WireReader(bytes(0x80)).varint()).toThrow(ProtobufError);
    expect(() => new WireReader(bytes(0xff, 0xff)).varint()).toThrow(/unexpected end of data in varint/);
  });

  it('refuses a varint longer than 10 bytes or over 64 bits', () => {
    expect(() => new WireReader(bytes(...Array(10).fill(0xff), 0x01)).varint()).toThrow(/overflows 64 bits/);
    expect(() => new WireReader(bytes(...Array(9).fill(0xff), 0x02)).varint()).toThrow(/overflows 64 bits/);
  });

  it('refuses a length past the end', () => {
    expect(() => new WireReader(bytes(0x05, 1, 2)).bytes()).toThrow(/runs past the end/);
    expect(() => new WireReader(bytes(...varint(2n ** 60n))).bytes()).toThrow(ProtobufError);
    // The length is checked against the slice, not the whole buffer.
    const r = new WireReader(bytes(0x03, 1, 2, 3), 0, 3);
    expect(() => r.bytes()).toThrow(/runs past the end/);
  });

  it('refuses field number 0, groups and unknown wire types', () => {
    expect(() => new WireReader(bytes(0x00)).tag()).toThrow(/field number 0/);
    expect(() => new WireReader(bytes(0x0b)).tag()).toThrow(/group/);
    expect(() => new WireReader(bytes(0x0c)).tag()).toThrow(/group/);
    expect(() => new WireReader(bytes(0x0e)).tag()).toThrow(/illegal wire type 6/);
  });

  it('skips every wire type and refuses truncated fixed fields', () => {
    const r = new WireReader(encode([int(1, 5), { n: 2, fixed64: 1n }, str(3, 'abc'), { n: 4, fixed32: 7 }]));
    const seen: number[] = [];
    while (!r.done()) {
      const t = r.tag();
      seen.push(t.field);
      r.skip(t.wireType);
    }
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(() => new WireReader(bytes(1, 2, 3)).take(4)).toThrow(ProtobufError);
    expect(() => new WireReader(bytes(1, 2, 3, 4, 5, 6, 7)).fixed64()).toThrow(ProtobufError);
  });
});

describe('decoder on hostile input', () => {
  it('limits nesting', () => {
    // The kinds' message graphs have no cycles, so data cannot nest past ~20 levels through known
    // fields; the limit is checked on the depth counter, and unknown fields are skipped unparsed.
    expect(() => decodeMessage('core.v1.ConfigMap', encode([msg(1, str(1, 'x'))]), MAX_DEPTH)).toThrow(/nested deeper/);
    expect(decodeMessage('core.v1.ConfigMap', encode([msg(1, str(1, 'x'))]), MAX_DEPTH - 2)).toEqual({ metadata: { name: 'x' } });
    let inner: Uint8Array = new Uint8Array(0);
    for (let i = 0; i < 1000; i++) inner = encode([{ n: 1, bytes: inner }]);
    expect(decodeMessage('core.v1.ConfigMap', encode([{ n: 99, bytes: inner }]))).toEqual({});
  });

  it('refuses a wire type that does not fit the field', () => {
    expect(() => decodeMessage('core.v1.ConfigMap', encode([int(1, 3)]))).toThrow(/wire type 0 for a message field/);
    expect(() => decodeMessage('meta.v1.ObjectMeta', encode([int(1, 3)]))).toThrow(/wire type 0 for a string field/);
    expect(() => decodeMessage('core.v1.ConfigMap', encode([str(4, 'yes')]))).toThrow(/wire type 2 for a bool field/);
  });

  it('refuses a body without the magic, and names unknown kinds', () => {
    expect(() => decodeProtobufObject(Buffer.from('{"kind":"ConfigMap"}'))).toThrow(/does not appear to be a protobuf message/);
    expect(() => decodeProtobufObject(envelope('v1', 'Widget', []))).toThrow(UnknownProtobufKindError);
    expect(() => decodeProtobufObject(envelope('example.com/v1', 'ConfigMap', []))).toThrow(UnknownProtobufKindError);
  });

  it('random bytes: only ProtobufError, never a crash', () => {
    const kinds = ['v1/Pod', 'v1/ConfigMap', 'v1/Service', 'apps/v1/Deployment', 'batch/v1/CronJob'];
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.constantFrom(...kinds), fc.boolean(), (raw, gvk, wrap) => {
        const slash = gvk.lastIndexOf('/');
        const body = wrap ? envelope(gvk.slice(0, slash), gvk.slice(slash + 1), raw) : Uint8Array.from([0x6b, 0x38, 0x73, 0, ...raw]);
        try {
          const out = decodeProtobufObject(body);
          expect(typeof out).toBe('object');
        } catch (e) {
          if (!(e instanceof ProtobufError) && !(e instanceof UnknownProtobufKindError)) throw e;
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('random well-formed field soups: only ProtobufError, never a crash', () => {
    const field: fc.Memo<Uint8Array> = fc.memo((n) =>
      fc.oneof(
        fc.tuple(fc.integer({ min: 1, max: 40 }), fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })).map(([f, v]) => encode([int(f, v)])),
        fc.tuple(fc.integer({ min: 1, max: 40 }), fc.string()).map(([f, s]) => encode([str(f, s)])),
        fc
          .tuple(fc.integer({ min: 1, max: 40 }), n > 1 ? fc.array(field(n - 1), { maxLength: 4 }) : fc.constant([]))
          .map(([f, parts]) => encode([{ n: f, bytes: Buffer.concat(parts) }])),
      ),
    );
    fc.assert(
      fc.property(
        fc.array(field(5), { maxLength: 6 }),
        fc.constantFrom('core.v1.Pod', 'core.v1.Service', 'apps.v1.Deployment', 'core.v1.Secret'),
        (parts, name) => {
          try {
            decodeMessage(name, Buffer.concat(parts));
          } catch (e) {
            if (!(e instanceof ProtobufError)) throw e;
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
