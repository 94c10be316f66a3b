import fc from 'fast-check';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import { CriMessages } from '../../../src/cri/proto/messages.js';
import { ProtoWriter } from '../../../src/util/proto-wire.js';
import { decodeMessage, encodeMessage, type FieldDef, type MessageDef } from '../../../src/cri/proto/schema.js';

/** Values of a message per its table: optional fields absent or non-default, so they survive proto3. */
function arbitraryOf(def: MessageDef, depth = 0): fc.Arbitrary<Record<string, unknown>> {
  const entries: Record<string, fc.Arbitrary<unknown>> = {};
  const required: string[] = [];
  for (const field of def.fields) {
    entries[field.name] = arbitraryField(field, depth);
    if (!field.optional) required.push(field.name);
  }
  return fc.record(entries, { requiredKeys: required });
}

const text = fc.string({ unit: 'grapheme', maxLength: 12 });
const nonEmpty = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 });

function arbitraryField(field: FieldDef, depth: number): fc.Arbitrary<unknown> {
  const opt = field.optional ?? false;
  switch (field.kind) {
    case 'message': {
      const inner = arbitraryOf(field.message(), depth + 1);
      if (field.repeated) return fc.array(inner, { minLength: opt ? 1 : 0, maxLength: 3 });
      return inner;
    }
    case 'map':
      return fc.dictionary(text, text, { minKeys: 1, maxKeys: 3 });
    case 'enum': {
      const names = field.enum.names;
      return fc.constantFrom(...(opt && !field.wrapped ? names.slice(1) : names));
    }
    default: {
      const scalar = scalarArbitrary(field.kind, opt && !field.repeated);
      return field.repeated ? fc.array(scalarArbitrary(field.kind, false), { minLength: opt ? 1 : 0, maxLength: 4 }) : scalar;
    }
  }
}

function scalarArbitrary(kind: string, nonDefault: boolean): fc.Arbitrary<unknown> {
  switch (kind) {
    case 'string':
      return nonDefault ? nonEmpty : text;
    case 'bool':
      return nonDefault ? fc.constant(true) : fc.boolean();
    case 'int32':
      return fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).filter((n) => !nonDefault || n !== 0);
    case 'uint32':
      return fc.integer({ min: nonDefault ? 1 : 0, max: 2 ** 32 - 1 });
    case 'int64':
      return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).filter((n) => !nonDefault || n !== 0n);
    case 'uint64':
      return fc.bigInt({ min: nonDefault ? 1n : 0n, max: 2n ** 64n - 1n });
    default:
      throw new Error(kind);
  }
}

describe('CRI messages round-trip', () => {
  for (const [name, c] of Object.entries(CriMessages)) {
    it(name, () => {
      fc.assert(
        fc.property(arbitraryOf(c.def), (value) => {
          const decoded = c.decode(c.encode(value as never)) as Record<string, unknown>;
          expect(decoded).toEqual(value);
        }),
        { numRuns: 40 },
      );
    });
  }
});

// An independent encoder (protobufjs) from the same field numbers as cri-api's api.proto.
const PROTO = `
syntax = "proto3";
package runtime.v1;
message ImageSpec { string image = 1; map<string, string> annotations = 2; string user_specified_image = 18; }
message ContainerMetadata { string name = 1; uint32 attempt = 2; }
enum ContainerState { CONTAINER_CREATED = 0; CONTAINER_RUNNING = 1; CONTAINER_EXITED = 2; CONTAINER_UNKNOWN = 3; }
message Mount { string container_path = 1; string host_path = 2; bool readonly = 3; }
message ContainerStatus {
  string id = 1; ContainerMetadata metadata = 2; ContainerState state = 3; int64 created_at = 4;
  int64 started_at = 5; int64 finished_at = 6; int32 exit_code = 7; ImageSpec image = 8; string image_ref = 9;
  string reason = 10; string message = 11; map<string,string> labels = 12; map<string,string> annotations = 13;
  repeated Mount mounts = 14; string log_path = 15; string image_id = 17;
}
message ContainerStatusResponse { ContainerStatus status = 1; map<string, string> info = 2; }
message ContainerStateValue { ContainerState state = 1; }
message ContainerFilter { string id = 1; ContainerStateValue state = 2; string pod_sandbox_id = 3; map<string, string> label_selector = 4; }
message ListContainersRequest { ContainerFilter filter = 1; }
message LinuxSandboxSecurityContext { repeated int64 supplemental_groups = 5; bool privileged = 6; }
`;
const root = protobuf.parse(PROTO, { keepCase: true }).root;

describe('CRI messages against protobufjs', () => {
  it('decodes a ContainerStatusResponse with fields memkube does not declare', () => {
    const type = root.lookupType('runtime.v1.ContainerStatusResponse');
    const bytes = type
      .encode(
        type.fromObject({
          status: {
            id: 'abc',
            metadata: { name: 'app', attempt: 2 },
            state: 2,
            created_at: '1700000000000000000',
            finished_at: '1700000001000000000',
            exit_code: -1,
            image: { image: 'docker.io/library/nginx:latest', user_specified_image: 'nginx' },
            image_ref: 'docker.io/library/nginx@sha256:00',
            reason: 'Error',
            labels: { a: 'b' },
            mounts: [{ container_path: '/data', host_path: '/var/data' }],
            log_path: '/var/log/pods/x/app/2.log',
            image_id: 'sha256:11',
          },
          info: { info: '{}' },
        }),
      )
      .finish();
    expect(CriMessages.ContainerStatusResponse.decode(bytes)).toEqual({
      status: {
        id: 'abc',
        metadata: { name: 'app', attempt: 2 },
        state: 'CONTAINER_EXITED',
        createdAt: 1_700_000_000_000_000_000n,
        startedAt: 0n,
        finishedAt: 1_700_000_001_000_000_000n,
        exitCode: -1,
        image: { image: 'docker.io/library/nginx:latest' },
        imageRef: 'docker.io/library/nginx@sha256:00',
        reason: 'Error',
        message: '',
        labels: { a: 'b' },
        logPath: '/var/log/pods/x/app/2.log',
        imageId: 'sha256:11',
      },
      info: { info: '{}' },
    });
  });

  it('writes a state filter in its wrapper, even for CONTAINER_CREATED (0)', () => {
    const bytes = CriMessages.ListContainersRequest.encode({ filter: { state: 'CONTAINER_CREATED', labelSelector: { k: 'v' } } });
    const decoded = root.lookupType('runtime.v1.ListContainersRequest').toObject(root.lookupType('runtime.v1.ListContainersRequest').decode(bytes), {
      defaults: false,
    });
    expect(decoded).toEqual({ filter: { state: {}, label_selector: { k: 'v' } } });
    expect(CriMessages.ListContainersRequest.decode(bytes)).toEqual({ filter: { state: 'CONTAINER_CREATED', labelSelector: { k: 'v' } } });
    // No filter state at all stays absent.
    expect(CriMessages.ListContainersRequest.decode(CriMessages.ListContainersRequest.encode({ filter: { id: 'x' } }))).toEqual({
      filter: { id: 'x' },
    });
  });

  it('matches protobufjs byte for byte on a ContainerStatus', () => {
    const value = {
      id: 'c1',
      metadata: { name: 'n', attempt: 1 },
      state: 'CONTAINER_RUNNING' as const,
      createdAt: 5n,
      startedAt: 6n,
      finishedAt: 0n,
      exitCode: 0,
      image: { image: 'img' },
      imageRef: 'ref',
      reason: '',
      message: '',
      logPath: '/l',
    };
    const ours = Buffer.from(CriMessages.ContainerStatusResponse.encode({ status: value })).toString('hex');
    const type = root.lookupType('runtime.v1.ContainerStatusResponse');
    const theirs = Buffer.from(
      type
        .encode(
          type.fromObject({
            status: {
              id: 'c1',
              metadata: { name: 'n', attempt: 1 },
              state: 1,
              created_at: 5,
              started_at: 6,
              image: { image: 'img' },
              image_ref: 'ref',
              log_path: '/l',
            },
          }),
        )
        .finish(),
    ).toString('hex');
    expect(ours).toBe(theirs);
  });
});

describe('CRI messages: hostile and odd input', () => {
  it('reads repeated numbers packed, unpacked and mixed, and writes them packed', () => {
    const def: MessageDef = { name: 'T', fields: [{ no: 5, name: 'ids', kind: 'int64', repeated: true }] };
    expect(Buffer.from(encodeMessage(def, { ids: [1n, -1n] })).toString('hex')).toBe('2a0b01ffffffffffffffffff01');
    const unpacked = new ProtoWriter().tag(5, 0).uint(1).tag(5, 0).uint(2).finish();
    expect(decodeMessage(def, unpacked)).toEqual({ ids: [1n, 2n] });
    const mixed = new ProtoWriter()
      .tag(5, 2)
      .bytes(Uint8Array.from([3, 4]))
      .tag(5, 0)
      .uint(5)
      .finish();
    expect(decodeMessage(def, mixed)).toEqual({ ids: [3n, 4n, 5n] });
    expect(() =>
      decodeMessage(
        def,
        new ProtoWriter()
          .tag(5, 2)
          .bytes(Uint8Array.from([0x80]))
          .finish(),
      ),
    ).toThrow(/truncated varint/);
  });

  it('skips undeclared fields protobufjs wrote (supplemental_groups)', () => {
    const type = root.lookupType('runtime.v1.LinuxSandboxSecurityContext');
    const bytes = type.encode(type.fromObject({ supplemental_groups: [1, 2, 3], privileged: true })).finish();
    const config = CriMessages.PodSandboxConfig.decode(new ProtoWriter().tag(8, 2).bytes(new ProtoWriter().tag(2, 2).bytes(bytes).finish()).finish());
    expect(config.linux?.securityContext?.privileged).toBe(true);
    expect(config.metadata).toEqual({ name: '', uid: '', namespace: '', attempt: 0 });
  });

  it('skips a known field sent with another wire type, as protobuf-go keeps it unknown', () => {
    const bytes = new ProtoWriter().tag(1, 0).uint(7).tag(2, 2).string('memkube').finish();
    expect(CriMessages.VersionResponse.decode(bytes)).toEqual({ version: '', runtimeName: 'memkube', runtimeVersion: '', runtimeApiVersion: '' });
  });

  it('maps unknown enum numbers to the unknown state', () => {
    const bytes = new ProtoWriter().tag(3, 0).uint(42).finish();
    expect(CriMessages.ContainerStatusResponse.decode(new ProtoWriter().tag(1, 2).bytes(bytes).finish()).status.state).toBe('CONTAINER_UNKNOWN');
  });

  it('fails truncated input with a clear error', () => {
    const full = CriMessages.VersionResponse.encode({ version: '0.1.0', runtimeName: 'containerd', runtimeVersion: 'v2', runtimeApiVersion: 'v1' });
    for (let cut = 1; cut < full.length; cut++) {
      let error: unknown;
      try {
        CriMessages.VersionResponse.decode(full.subarray(0, cut));
      } catch (e) {
        error = e;
      }
      // Every cut either decodes a prefix of whole fields or fails as malformed.
      if (error) expect(String(error)).toMatch(/^ProtoDecodeError: protobuf: (truncated varint|length \d+ at offset \d+ runs past the end)/);
    }
  });

  it('refuses unknown groups nested beyond the limit, without overflowing the stack', () => {
    const deep = new Uint8Array(100_000).fill((99 << 3) | 3);
    expect(() => CriMessages.Empty.decode(deep)).toThrow(/nested too deeply/);
  });

  it('fails on random bytes only with ProtoDecodeError', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        try {
          CriMessages.ContainerStatusResponse.decode(bytes);
        } catch (e) {
          expect((e as Error).name).toBe('ProtoDecodeError');
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('CRI messages: map keys', () => {
  it('keeps a __proto__ key as an entry, never as the prototype', () => {
    const entry = new ProtoWriter().tag(1, 2).string('__proto__').tag(2, 2).string('x').finish();
    const bytes = new ProtoWriter().tag(1, 2).bytes(new ProtoWriter().tag(2, 2).bytes(entry).finish()).finish();
    const decoded = CriMessages.ImageStatusRequest.decode(bytes);
    const annotations = decoded.image.annotations!;
    expect(Object.getPrototypeOf(annotations)).toBe(Object.prototype);
    expect(Object.keys(annotations)).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(annotations, '__proto__')?.value).toBe('x');
  });
});
