/**
 * Golden bodies: objects encoded as client-go's generated marshallers write them (every non-pointer
 * scalar on the wire, empty or not), decoded to the JSON kubectl would have sent.
 */
import { describe, expect, it } from 'vitest';
import { decodeProtobufObject } from '../../../src/http/protobuf/envelope.js';
import { decodeMessage, goDuration } from '../../../src/http/protobuf/messages.js';
import { encode, entry, envelope, type Field, int, msg, str } from './writer.js';

/** ObjectMeta as Go writes it: all non-pointer fields, a zero creationTimestamp. */
function objectMeta(name: string, namespace = '', ...more: Field[]): Field {
  return msg(1, str(1, name), str(2, ''), str(3, namespace), str(4, ''), str(5, ''), str(6, ''), int(7, 0), msg(8), ...more);
}

describe('protobuf bodies of the built-in kinds', () => {
  it('ConfigMap: data, binaryData (base64), immutable, labels, annotations', () => {
    const body = envelope('v1', 'ConfigMap', [
      objectMeta('x', '', entry(11, 'app', 'web'), entry(12, 'note', 'n')),
      entry(2, 'a', 'b'),
      entry(2, 'empty', ''),
      entry(3, 'bin', Uint8Array.of(0, 1, 2, 255)),
      int(4, false),
    ]);
    expect(decodeProtobufObject(body)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'x', labels: { app: 'web' }, annotations: { note: 'n' } },
      data: { a: 'b', empty: '' },
      binaryData: { bin: 'AAEC/w==' },
      immutable: false,
    });
  });

  it('Secret: data as base64, stringData, type', () => {
    const body = envelope('v1', 'Secret', [objectMeta('s'), entry(2, 'p', 'q'), str(3, 'Opaque'), entry(4, 'plain', 'text')]);
    expect(decodeProtobufObject(body)).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 's' },
      data: { p: 'cQ==' },
      type: 'Opaque',
      stringData: { plain: 'text' },
    });
  });

  it('Namespace: spec.finalizers, status.phase; empty messages stay as objects', () => {
    const body = envelope('v1', 'Namespace', [objectMeta('n'), msg(2, str(1, 'kubernetes')), msg(3, str(1, ''))]);
    expect(decodeProtobufObject(body)).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'n' },
      spec: { finalizers: ['kubernetes'] },
      status: {},
    });
  });

  it('ServiceAccount: secrets, imagePullSecrets, automountServiceAccountToken', () => {
    const body = envelope('v1', 'ServiceAccount', [objectMeta('sa', 'default'), msg(2, str(3, 'tok'), str(1, 'Secret')), msg(3, str(1, 'reg')), int(4, true)]);
    expect(decodeProtobufObject(body)).toEqual({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'sa', namespace: 'default' },
      secrets: [{ name: 'tok', kind: 'Secret' }],
      imagePullSecrets: [{ name: 'reg' }],
      automountServiceAccountToken: true,
    });
  });

  it('Service: ports with IntOrString targetPort, selector, clusterIP, type', () => {
    const port = (name: string, p: number, target: Field) => msg(1, str(1, name), str(2, 'TCP'), int(3, p), target, int(5, 0));
    const body = envelope('v1', 'Service', [
      objectMeta('web', '', entry(11, 'app', 'web')),
      msg(
        2,
        port('80-8080', 80, msg(4, int(1, 0), int(2, 8080), str(3, ''))),
        port('named', 81, msg(4, int(1, 1), int(2, 0), str(3, 'http'))),
        entry(2, 'app', 'web'),
        str(3, ''),
        str(4, 'ClusterIP'),
        str(7, ''),
        int(12, 0),
        int(13, false),
      ),
      msg(3, msg(1)),
    ]);
    expect(decodeProtobufObject(body)).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        ports: [
          { name: '80-8080', protocol: 'TCP', port: 80, targetPort: 8080 },
          { name: 'named', protocol: 'TCP', port: 81, targetPort: 'http' },
        ],
        selector: { app: 'web' },
        type: 'ClusterIP',
      },
      status: { loadBalancer: {} },
    });
  });

  it('Pod as kubectl run writes it: containers, env, ports, resources, probes (inlined handler), volumes (inlined source)', () => {
    const container = msg(
      2,
      str(1, 'nginx'),
      str(2, 'nginx'),
      str(3, 'sh'),
      str(3, '-c'),
      str(4, 'echo hi'),
      str(5, ''),
      msg(6, str(1, ''), int(2, 0), int(3, 80), str(4, 'TCP'), str(5, '')),
      msg(7, str(1, 'A'), str(2, 'B')),
      msg(8, { n: 1, msg: [str(1, 'cpu'), msg(2, str(1, '500m'))] }, { n: 2, msg: [str(1, 'memory'), msg(2, str(1, '64Mi'))] }),
      msg(10, msg(1, msg(2, str(1, '/healthz'), msg(2, int(1, 1), str(3, 'http')))), int(2, 3)),
      msg(9, str(1, 'data'), int(2, false), str(3, '/data')),
      str(13, ''),
      str(20, ''),
      str(14, 'IfNotPresent'),
      int(16, true),
      int(17, false),
      int(18, true),
    );
    const spec = msg(
      2,
      msg(1, str(1, 'data'), msg(2, msg(2, str(1, ''), msg(2, str(1, '1Gi'))))),
      container,
      str(3, 'Never'),
      str(6, 'ClusterFirst'),
      str(8, ''),
      str(9, ''),
      int(11, false),
      int(4, 30),
      int(21, false),
      msg(14),
    );
    const body = envelope('v1', 'Pod', [objectMeta('nginx', '', entry(11, 'run', 'nginx')), spec, msg(3)]);
    expect(decodeProtobufObject(body)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'nginx', labels: { run: 'nginx' } },
      spec: {
        volumes: [{ name: 'data', emptyDir: { sizeLimit: '1Gi' } }],
        containers: [
          {
            name: 'nginx',
            image: 'nginx',
            command: ['sh', '-c'],
            args: ['echo hi'],
            ports: [{ containerPort: 80, protocol: 'TCP' }],
            env: [{ name: 'A', value: 'B' }],
            resources: { limits: { cpu: '500m' }, requests: { memory: '64Mi' } },
            livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 3 },
            volumeMounts: [{ name: 'data', mountPath: '/data' }],
            imagePullPolicy: 'IfNotPresent',
            stdin: true,
            tty: true,
          },
        ],
        restartPolicy: 'Never',
        dnsPolicy: 'ClusterFirst',
        terminationGracePeriodSeconds: 30,
        automountServiceAccountToken: false,
        securityContext: {},
      },
      status: {},
    });
  });

  it('ObjectMeta: ownerReferences, finalizers, managedFields with FieldsV1 and Time, timestamps', () => {
    const meta = [
      str(1, 'x'),
      msg(8, int(1, 1_700_000_000), int(2, 5)),
      msg(9, int(1, 1_700_000_060)),
      int(10, 30),
      int(7, 2),
      msg(13, str(1, 'ReplicaSet'), str(3, 'rs'), str(4, 'u-1'), str(5, 'apps/v1'), int(6, true)),
      str(14, 'example.com/f'),
      msg(17, str(1, 'kubectl'), str(2, 'Update'), str(3, 'v1'), msg(4, int(1, 0)), str(6, 'FieldsV1'), msg(7, str(1, '{"f:data":{}}')), str(8, '')),
    ];
    expect(decodeMessage('meta.v1.ObjectMeta', encode(meta))).toEqual({
      name: 'x',
      creationTimestamp: '2023-11-14T22:13:20Z',
      deletionTimestamp: '2023-11-14T22:14:20Z',
      deletionGracePeriodSeconds: 30,
      generation: 2,
      ownerReferences: [{ kind: 'ReplicaSet', name: 'rs', uid: 'u-1', apiVersion: 'apps/v1', controller: true }],
      finalizers: ['example.com/f'],
      managedFields: [{ manager: 'kubectl', operation: 'Update', apiVersion: 'v1', time: null, fieldsType: 'FieldsV1', fieldsV1: { 'f:data': {} } }],
    });
  });

  it('negative numbers, duplicated singular messages merged, last scalar wins, unknown fields skipped', () => {
    const body = encode([msg(2, int(1, -1)), msg(2, int(6, 10)), int(99, 7), str(98, 'x'), { n: 97, fixed32: 1 }, { n: 96, fixed64: 1n }]);
    expect(decodeMessage('apps.v1.Deployment', body)).toEqual({ spec: { replicas: -1, revisionHistoryLimit: 10 } });
    expect(decodeMessage('meta.v1.ObjectMeta', encode([str(1, 'a'), str(1, 'b'), str(3, 'ns'), str(3, '')]))).toEqual({ name: 'b' });
  });

  it('Deployment and CronJob decode (apps/v1, batch/v1)', () => {
    const template = msg(3, objectMeta('', '', entry(11, 'app', 'web')), msg(2, msg(2, str(1, 'c'), str(2, 'busybox'))));
    const deploy = envelope('apps/v1', 'Deployment', [
      objectMeta('d'),
      msg(2, int(1, 2), msg(2, entry(1, 'app', 'web')), template, msg(4, str(1, 'RollingUpdate'))),
    ]);
    expect(decodeProtobufObject(deploy)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'busybox' }] } },
        strategy: { type: 'RollingUpdate' },
      },
    });
    const cron = envelope('batch/v1', 'CronJob', [
      objectMeta('c'),
      msg(2, str(1, '*/1 * * * *'), msg(5, objectMeta('c'), msg(2, msg(6, msg(2, str(3, 'OnFailure')))))),
    ]);
    expect(decodeProtobufObject(cron)).toMatchObject({
      kind: 'CronJob',
      spec: { schedule: '*/1 * * * *', jobTemplate: { metadata: { name: 'c' }, spec: { template: { spec: { restartPolicy: 'OnFailure' } } } } },
    });
  });

  it('Go durations', () => {
    expect(goDuration(0n)).toBe('0s');
    expect(goDuration(1_500_000_000n)).toBe('1.5s');
    expect(goDuration(3_600_000_000_000n)).toBe('1h0m0s');
    expect(goDuration(150_000_000n)).toBe('150ms');
    expect(goDuration(-90_000_000_000n)).toBe('-1m30s');
  });
});
