import { describe, it, expect } from 'vitest';
import { z } from 'zod';
import { Container, Pod } from '../../src/kinds/types/core-v1.js';
import { ObjectMeta, Time } from '../../src/kinds/types/meta-v1.js';
import { IntOrString, Quantity } from '../../src/kinds/types/primitives.js';
import { StatefulSet } from '../../src/kinds/types/apps-v1.js';

type JsonSchema = {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  required?: string[];
  [k: string]: unknown;
};

/** Follows `#/$defs/...` references inside one generated JSON Schema document. */
function resolve(root: JsonSchema, schema: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; s.$ref && i < 20; i++) {
    const prefix = '#/$defs/';
    expect(s.$ref.startsWith(prefix)).toBe(true);
    const next = root.$defs?.[s.$ref.slice(prefix.length)];
    expect(next, `unresolved ${s.$ref}`).toBeDefined();
    s = next!;
  }
  return s;
}

function prop(root: JsonSchema, schema: JsonSchema, name: string): JsonSchema {
  const p = resolve(root, schema).properties?.[name];
  expect(p, `property ${name}`).toBeDefined();
  return p!;
}

describe('generated kind types: JSON Schema metadata', () => {
  it('Pod carries the strategic-merge and list-map metadata of containers and ports', () => {
    const root = z.toJSONSchema(Pod(), { io: 'input' }) as JsonSchema;
    const spec = prop(root, root, 'spec');
    const containers = prop(root, spec, 'containers');
    expect(containers).toMatchObject({
      type: 'array',
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    expect(resolve(root, spec).required).toContain('containers');

    const ports = prop(root, containers.items!, 'ports');
    expect(ports).toMatchObject({
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['containerPort', 'protocol'],
      'x-kubernetes-patch-merge-key': 'containerPort',
      'x-kubernetes-patch-strategy': 'merge',
    });

    // definition-level metadata: the id names the $defs entry, GVK rides along
    expect(root.$ref).toBe('#/$defs/io.k8s.api.core.v1.Pod');
    expect(resolve(root, root)['x-kubernetes-group-version-kind']).toEqual([{ group: '', kind: 'Pod', version: 'v1' }]);
    // named primitives are shared definitions
    expect(root.$defs?.['io.k8s.apimachinery.pkg.api.resource.Quantity']).toMatchObject({
      'x-kubernetes-int-or-string': true,
    });
    expect(root.$defs?.['io.k8s.apimachinery.pkg.apis.meta.v1.Time']).toMatchObject({ type: 'string', format: 'date-time' });
  });

  it('ObjectMeta: finalizers are a set, ownerReferences merge on uid', () => {
    const root = z.toJSONSchema(ObjectMeta(), { io: 'input' }) as JsonSchema;
    expect(prop(root, root, 'finalizers')).toMatchObject({
      type: 'array',
      items: { type: 'string' },
      'x-kubernetes-list-type': 'set',
    });
    expect(prop(root, root, 'ownerReferences')).toMatchObject({
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['uid'],
      'x-kubernetes-patch-merge-key': 'uid',
      'x-kubernetes-patch-strategy': 'merge',
    });
  });

  it('metadata is also readable straight from the zod schemas', () => {
    const containers = Pod().shape.spec.unwrap().shape.containers;
    expect(containers.meta()).toMatchObject({ 'x-kubernetes-patch-merge-key': 'name' });
    expect(Pod().meta()?.id).toBe('io.k8s.api.core.v1.Pod');
    expect(Time().meta()).toMatchObject({ id: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time', format: 'date-time' });
  });
});

describe('generated kind types: parsing', () => {
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: 'web-0',
      namespace: 'default',
      labels: { app: 'web' },
      annotations: { 'example.com/owner': 'team-a' },
      finalizers: ['example.com/cleanup'],
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: 'web',
          uid: '5f1c2d3e-0000-4000-8000-000000000001',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      creationTimestamp: '2026-05-01T10:00:00Z',
      managedFields: [
        {
          manager: 'kubectl',
          operation: 'Apply',
          apiVersion: 'v1',
          time: '2026-05-01T10:00:00Z',
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } },
        },
      ],
    },
    spec: {
      restartPolicy: 'Always',
      terminationGracePeriodSeconds: 30,
      nodeSelector: { 'kubernetes.io/os': 'linux' },
      securityContext: { runAsNonRoot: true, runAsUser: 1000, fsGroup: 2000, supplementalGroups: [3000] },
      initContainers: [{ name: 'init', image: 'busybox:1.36', command: ['sh', '-c', 'true'] }],
      containers: [
        {
          name: 'web',
          image: 'nginx:1.27',
          imagePullPolicy: 'IfNotPresent',
          args: ['-g', 'daemon off;'],
          ports: [
            { name: 'http', containerPort: 80, protocol: 'TCP' },
            { name: 'metrics', containerPort: 9090 },
          ],
          env: [
            { name: 'MODE', value: 'production' },
            { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password', optional: false } } },
          ],
          envFrom: [{ configMapRef: { name: 'web-config' } }],
          resources: {
            requests: { cpu: '100m', memory: '128Mi' },
            limits: { cpu: 1, memory: '1Gi', 'example.com/gpu': '1' },
          },
          volumeMounts: [
            { name: 'data', mountPath: '/usr/share/nginx/html' },
            { name: 'config', mountPath: '/etc/nginx/conf.d', readOnly: true },
          ],
          livenessProbe: {
            httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
            initialDelaySeconds: 5,
            periodSeconds: 10,
          },
          readinessProbe: { tcpSocket: { port: 80 }, failureThreshold: 3 },
          startupProbe: { exec: { command: ['cat', '/tmp/ready'] } },
          lifecycle: { preStop: { sleep: { seconds: 5 } } },
          securityContext: {
            allowPrivilegeEscalation: false,
            capabilities: { drop: ['ALL'] },
            readOnlyRootFilesystem: true,
          },
        },
      ],
      volumes: [
        { name: 'data', persistentVolumeClaim: { claimName: 'data-web-0' } },
        { name: 'config', configMap: { name: 'web-config', defaultMode: 420, items: [{ key: 'nginx.conf', path: 'default.conf' }] } },
        { name: 'cache', emptyDir: { medium: 'Memory', sizeLimit: '256Mi' } },
      ],
      tolerations: [{ key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }],
      affinity: {
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: {
                topologyKey: 'kubernetes.io/hostname',
                labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
              },
            },
          ],
        },
      },
    },
    status: {
      phase: 'Running',
      podIP: '10.0.0.12',
      podIPs: [{ ip: '10.0.0.12' }],
      startTime: '2026-05-01T10:00:01Z',
      conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-05-01T10:00:09Z' }],
      containerStatuses: [
        {
          name: 'web',
          image: 'nginx:1.27',
          imageID: 'docker.io/library/nginx@sha256:abc',
          ready: true,
          restartCount: 0,
          started: true,
          state: { running: { startedAt: '2026-05-01T10:00:05Z' } },
        },
      ],
    },
  };

  it('accepts a realistic full Pod manifest', () => {
    const result = Pod().safeParse(pod);
    expect(result.error?.issues).toBeUndefined();
    expect(result.success).toBe(true);
    const parsed: Pod = result.data!;
    expect(parsed.spec?.containers[0]?.resources?.limits?.['cpu']).toBe(1);
    expect(parsed.spec?.containers[0]?.livenessProbe?.httpGet?.port).toBe('http');
    expect(parsed.metadata?.managedFields?.[0]?.fieldsV1).toEqual({ 'f:metadata': { 'f:labels': { 'f:app': {} } } });
  });

  it('accepts a StatefulSet whose template embeds the same Pod spec', () => {
    const sts = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'web' },
      spec: {
        serviceName: 'web',
        replicas: 3,
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: pod.spec },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
          },
        ],
      },
    };
    expect(StatefulSet().safeParse(sts).success).toBe(true);
  });

  it('rejects a Container without a name', () => {
    const result = Container().safeParse({ image: 'nginx' });
    expect(result.success).toBe(false);
    expect(result.error?.issues.some((i) => i.path.join('.') === 'name')).toBe(true);

    const inPod = Pod().safeParse({ spec: { containers: [{ image: 'nginx' }] } });
    expect(inPod.success).toBe(false);
    expect(inPod.error?.issues[0]?.path).toEqual(['spec', 'containers', 0, 'name']);
  });

  it('rejects wrong primitive types', () => {
    expect(Pod().safeParse({ spec: { containers: [{ name: 'a', ports: [{ containerPort: '80' }] }] } }).success).toBe(false);
    expect(Pod().safeParse({ spec: { containers: [{ name: 'a', ports: [{ containerPort: 1.5 }] }] } }).success).toBe(false);
    expect(Pod().safeParse({ metadata: { labels: { a: 1 } } }).success).toBe(false);
  });

  it('Quantity accepts strings and numbers; IntOrString accepts int32 and strings', () => {
    expect(Quantity().safeParse('1Gi').success).toBe(true);
    expect(Quantity().safeParse('100m').success).toBe(true);
    expect(Quantity().safeParse(2).success).toBe(true);
    expect(Quantity().safeParse(true).success).toBe(false);

    expect(IntOrString().safeParse(80).success).toBe(true);
    expect(IntOrString().safeParse('http').success).toBe(true);
    expect(IntOrString().safeParse(1.5).success).toBe(false);
    expect(IntOrString().safeParse(2 ** 31).success).toBe(false);
    expect(IntOrString().safeParse(null).success).toBe(false);
  });
});
