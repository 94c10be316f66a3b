import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ApiError } from '../../../src/machinery/errors.js';
import { NamespaceKind, PodKind, ServiceAccountKind } from '../../../src/kinds/index.js';
import type { Pod } from '../../../src/kinds/core/pod.js';
import { normalizeQuantity } from '../../../src/kinds/shared/resource-lists.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();

const pods = () => cluster.client.resource(PodKind);
const NS = { namespace: 'default' };

const LABEL_MSG =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const TOKEN_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_NAME = /^kube-api-access-[bcdfghjklmnpqrstvwxz2456789]{5}$/;
const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

function tokenVolume(name: string) {
  return {
    name,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  };
}

/** A pod named `x` with one container `c` (image nginx), changed by `patch`. */
function pod(patch: (p: Pod) => void = () => {}): Pod {
  const p: Pod = { metadata: { name: 'x' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
  patch(p);
  return p;
}

/** The 422 of creating `p`, checked to have exactly these causes (as `field: message` lines) and the matching message. */
async function expectInvalid(p: Pod, causes: string[]): Promise<void> {
  const before = (await pods().list(NS)).items.length;
  const s = await statusOf(() => pods().create(p, NS));
  expect(s.code).toBe(422);
  expect(s.reason).toBe('Invalid');
  const got = (s.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
  expect(got).toEqual(causes);
  const unique = [...new Set(causes)];
  expect(s.message).toBe(`Pod "${p.metadata?.name}" is invalid: ${unique.length === 1 ? unique[0] : `[${unique.join(', ')}]`}`);
  expect((await pods().list(NS)).items.length).toBe(before);
}

describe('Pod defaults on create', () => {
  it('gives a minimal pod exactly the fields a v1.36 API server adds', async () => {
    const created = await pods().create({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }] } }, NS);
    const token = created.spec!.volumes![0]!.name;
    expect(token).toMatch(TOKEN_NAME);
    expect(created).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'p',
        namespace: 'default',
        uid: expect.any(String),
        resourceVersion: expect.any(String),
        creationTimestamp: '2026-01-01T00:00:00Z',
        generation: 1,
        // As on a real cluster: the client owns what it sent plus the decoding defaults, not what
        // admission added (token volume, tolerations, priority).
        managedFields: [
          {
            manager: 'memkube-client',
            operation: 'Update',
            apiVersion: 'v1',
            time: '2026-01-01T00:00:00Z',
            fieldsType: 'FieldsV1',
            fieldsV1: {
              'f:spec': {
                'f:containers': {
                  'k:{"name":"c"}': {
                    '.': {},
                    'f:image': {},
                    'f:imagePullPolicy': {},
                    'f:name': {},
                    'f:resources': {},
                    'f:terminationMessagePath': {},
                    'f:terminationMessagePolicy': {},
                  },
                },
                'f:dnsPolicy': {},
                'f:enableServiceLinks': {},
                'f:restartPolicy': {},
                'f:schedulerName': {},
                'f:securityContext': {},
                'f:terminationGracePeriodSeconds': {},
              },
            },
          },
        ],
      },
      spec: {
        containers: [
          {
            name: 'c',
            image: 'nginx',
            imagePullPolicy: 'Always',
            resources: {},
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            volumeMounts: [{ name: token, readOnly: true, mountPath: TOKEN_PATH }],
          },
        ],
        volumes: [tokenVolume(token)],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        dnsPolicy: 'ClusterFirst',
        serviceAccountName: 'default',
        serviceAccount: 'default',
        securityContext: {},
        schedulerName: 'default-scheduler',
        tolerations: DEFAULT_TOLERATIONS,
        priority: 0,
        enableServiceLinks: true,
        preemptionPolicy: 'PreemptLowerPriority',
      },
      status: { phase: 'Pending', qosClass: 'BestEffort' },
    });
    expect(await pods().get('p', NS)).toEqual(created);
  });

  it('chooses imagePullPolicy from the tag as Kubernetes does', async () => {
    const cases: [string, string][] = [
      ['nginx', 'Always'],
      ['nginx:latest', 'Always'],
      ['nginx:1.27', 'IfNotPresent'],
      ['registry.example.com:5000/team/app', 'Always'],
      ['registry.example.com:5000/team/app:v2', 'IfNotPresent'],
      [`nginx@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
      [`nginx:latest@sha256:${'a'.repeat(64)}`, 'Always'],
      ['NGINX', 'IfNotPresent'],
    ];
    const created = await pods().create(
      pod((p) => (p.spec!.containers = cases.map(([image], i) => ({ name: `c${i}`, image })))),
      NS,
    );
    expect(created.spec!.containers.map((c) => c.imagePullPolicy)).toEqual(cases.map(([, policy]) => policy));
  });

  it('copies a limit named like an Object.prototype member into requests too, so both are reported', async () => {
    const limits = JSON.parse('{"constructor":"1"}') as Record<string, string>;
    const s = await statusOf(() =>
      pods().create(
        pod((p) => (p.spec!.containers[0]!.resources = { limits })),
        NS,
      ),
    );
    expect(s.details?.causes?.map((c) => c.field)).toEqual([
      'spec.containers[0].resources.limits[constructor]',
      'spec.containers[0].resources.requests[constructor]',
    ]);
  });

  it('defaults requests from limits, canonicalizes quantities and computes the QoS class', async () => {
    const guaranteed = await pods().create(
      pod((p) => (p.spec!.containers[0]!.resources = { limits: { cpu: '0.5', memory: '1024Mi' } })),
      NS,
    );
    expect(guaranteed.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '500m', memory: '1Gi' } });
    expect(guaranteed.status).toEqual({ phase: 'Pending', qosClass: 'Guaranteed' });
    const burstable = await pods().create(
      pod((p) => {
        p.metadata!.name = 'b';
        p.spec!.containers[0]!.resources = { requests: { cpu: 0.1, memory: '64Mi' }, limits: { memory: '128Mi' } };
      }),
      NS,
    );
    expect(burstable.spec!.containers[0]!.resources).toEqual({ requests: { cpu: '100m', memory: '64Mi' }, limits: { memory: '128Mi' } });
    expect(burstable.status!.qosClass).toBe('Burstable');
  });

  it('still gets requests from limits and a negative grace period made 1 when written by patch', async () => {
    const created = await pods().create(
      pod((p) => (p.spec!.containers[0]!.resources = { limits: { cpu: '1' } })),
      NS,
    );
    expect(created.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '1' }, requests: { cpu: '1' } });
    const s = await statusOf(() => pods().patch('x', { spec: { terminationGracePeriodSeconds: -1 } }, { type: 'merge', namespace: 'default' }));
    // An update may only lower a negative grace period to 1: a stored 30 may not become 1.
    expect(s.code).toBe(422);
    expect(s.message).toContain('- \tTerminationGracePeriodSeconds: 30,\n+ \tTerminationGracePeriodSeconds: 1,');
  });

  it('defaults pod-level requests from container requests and pod limits', async () => {
    const created = await pods().create(
      pod((p) => {
        p.spec!.resources = { limits: { cpu: '2', memory: '2Gi' } };
        p.spec!.containers[0]!.resources = { requests: { cpu: '500m' } };
      }),
      NS,
    );
    expect(created.spec!.resources).toEqual({ limits: { cpu: '2', memory: '2Gi' }, requests: { cpu: '500m', memory: '2Gi' } });
    expect(created.status!.qosClass).toBe('Burstable');
  });

  it('stores quantities in a form that reads back unchanged', () => {
    fc.assert(
      fc.property(
        fc.tuple(
          fc.constantFrom('', '+', '-'),
          fc.nat({ max: 99999 }),
          fc.option(fc.nat({ max: 9999 })),
          fc.constantFrom('', 'm', 'k', 'M', 'G', 'Ki', 'Mi', 'Gi', 'e3', 'n', 'u'),
        ),
        ([sign, whole, frac, suffix]) => {
          const text = normalizeQuantity(`${sign}${whole}${frac === null ? '' : `.${frac}`}${suffix}`, true);
          expect(normalizeQuantity(text, true)).toBe(text);
        },
      ),
    );
  });

  it('fills probe, port, env, volume and host-network defaults', async () => {
    const created = await pods().create(
      pod((p) => {
        const spec = p.spec!;
        spec.hostNetwork = true;
        spec.terminationGracePeriodSeconds = -5;
        spec.serviceAccount = 'default';
        spec.containers[0] = {
          name: 'c',
          image: 'nginx:1.27',
          ports: [{ containerPort: 8080 }],
          env: [{ name: 'POD', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
          livenessProbe: { httpGet: { port: 8080 } },
          readinessProbe: { grpc: { port: 9090 } },
          lifecycle: { preStop: { httpGet: { port: 'http' } } },
          volumeMounts: [{ name: 'scratch', mountPath: '/scratch' }],
        };
        spec.volumes = [
          { name: 'scratch' },
          { name: 'cfg', configMap: { name: 'cfg' } },
          { name: 'sec', secret: { secretName: 'sec' } },
          { name: 'host', hostPath: { path: '/var/log' } },
          { name: 'info', downwardAPI: { items: [{ path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } }] } },
          {
            name: 'claim',
            ephemeral: { volumeClaimTemplate: { spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } } },
          },
        ];
      }),
      NS,
    );
    const spec = created.spec!;
    expect(spec.terminationGracePeriodSeconds).toBe(1);
    const c = spec.containers[0]!;
    expect(c.ports).toEqual([{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }]);
    expect(c.env).toEqual([{ name: 'POD', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }]);
    expect(c.livenessProbe).toEqual({
      httpGet: { port: 8080, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(c.readinessProbe).toEqual({ grpc: { port: 9090, service: '' }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 });
    expect(c.lifecycle).toEqual({ preStop: { httpGet: { port: 'http', path: '/', scheme: 'HTTP' } } });
    expect(spec.volumes!.slice(0, 6)).toEqual([
      { name: 'scratch', emptyDir: {} },
      { name: 'cfg', configMap: { name: 'cfg', defaultMode: 420 } },
      { name: 'sec', secret: { secretName: 'sec', defaultMode: 420 } },
      { name: 'host', hostPath: { path: '/var/log', type: '' } },
      { name: 'info', downwardAPI: { defaultMode: 420, items: [{ path: 'labels', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.labels' } }] } },
      {
        name: 'claim',
        ephemeral: {
          volumeClaimTemplate: {
            metadata: {},
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
          },
        },
      },
    ]);
    expect(spec.volumes![6]!.name).toMatch(TOKEN_NAME);
  });

  it('does not mount the API token when automount is off, and keeps explicit tolerations that cover the defaults', async () => {
    const created = await pods().create(
      pod((p) => {
        p.spec!.automountServiceAccountToken = false;
        p.spec!.tolerations = [{ operator: 'Exists' }];
      }),
      NS,
    );
    expect(created.spec!.volumes).toBeUndefined();
    expect(created.spec!.containers[0]!.volumeMounts).toBeUndefined();
    expect(created.spec!.tolerations).toEqual([{ operator: 'Exists' }]);
  });

  it('adds the SchedulingGated condition and merges matchLabelKeys into selectors', async () => {
    const created = await pods().create(
      pod((p) => {
        p.metadata!.labels = { app: 'web', tier: 'front' };
        p.spec!.schedulingGates = [{ name: 'example.com/gate' }];
        p.spec!.topologySpreadConstraints = [
          { maxSkew: 1, topologyKey: 'zone', whenUnsatisfiable: 'DoNotSchedule', labelSelector: { matchLabels: { app: 'web' } }, matchLabelKeys: ['tier'] },
        ];
        p.spec!.affinity = {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { topologyKey: 'host', labelSelector: { matchLabels: { app: 'web' } }, mismatchLabelKeys: ['tier'] },
            ],
          },
        };
      }),
      NS,
    );
    expect(created.status).toEqual({
      phase: 'Pending',
      qosClass: 'BestEffort',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' }],
    });
    expect(created.spec!.topologySpreadConstraints![0]!.labelSelector).toEqual({
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['front'] }],
    });
    expect(created.spec!.affinity!.podAntiAffinity!.requiredDuringSchedulingIgnoredDuringExecution![0]!.labelSelector).toEqual({
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['front'] }],
    });
  });

  it('keeps a realistic manifest unchanged apart from the defaults', async () => {
    const manifest: Pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'web-0', labels: { app: 'web' }, annotations: { 'example.com/owner': 'team-a' } },
      spec: {
        initContainers: [
          {
            name: 'migrate',
            image: 'example.com/app:v1',
            command: ['/bin/migrate'],
            imagePullPolicy: 'IfNotPresent',
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            resources: {},
          },
          {
            name: 'log-shipper',
            image: 'example.com/shipper:v3',
            restartPolicy: 'Always',
            imagePullPolicy: 'IfNotPresent',
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'FallbackToLogsOnError',
            resources: { requests: { cpu: '50m', memory: '32Mi' } },
            volumeMounts: [{ name: 'logs', mountPath: '/var/log/app', readOnly: true }],
            startupProbe: { exec: { command: ['true'] }, timeoutSeconds: 1, periodSeconds: 10, successThreshold: 1, failureThreshold: 3 },
          },
        ],
        containers: [
          {
            name: 'app',
            image: 'example.com/app:v1',
            imagePullPolicy: 'IfNotPresent',
            args: ['--port=8080'],
            workingDir: '/srv',
            ports: [
              { name: 'http', containerPort: 8080, protocol: 'TCP' },
              { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
            ],
            env: [
              { name: 'MODE', value: 'prod' },
              { name: 'NODE', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } } },
              { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'db', key: 'password' } } },
              { name: 'LEVEL', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'level', optional: true } } },
              { name: 'CPU', valueFrom: { resourceFieldRef: { containerName: 'app', resource: 'limits.cpu', divisor: '1m' } } },
            ],
            envFrom: [{ configMapRef: { name: 'cfg' }, prefix: 'CFG_' }],
            resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
            volumeMounts: [
              { name: 'data', mountPath: '/data' },
              { name: 'logs', mountPath: '/var/log/app' },
              { name: 'config', mountPath: '/etc/app', readOnly: true },
              { name: 'cache', mountPath: '/cache', subPath: 'app' },
            ],
            livenessProbe: {
              httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP' },
              initialDelaySeconds: 5,
              timeoutSeconds: 2,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
            readinessProbe: { tcpSocket: { port: 8080 }, timeoutSeconds: 1, periodSeconds: 5, successThreshold: 2, failureThreshold: 3 },
            lifecycle: { preStop: { sleep: { seconds: 5 } } },
            securityContext: {
              runAsNonRoot: true,
              runAsUser: 1000,
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              capabilities: { drop: ['ALL'] },
              seccompProfile: { type: 'RuntimeDefault' },
            },
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
          },
        ],
        volumes: [
          { name: 'data', persistentVolumeClaim: { claimName: 'web-data' } },
          { name: 'logs', emptyDir: { sizeLimit: '1Gi' } },
          {
            name: 'config',
            projected: {
              defaultMode: 420,
              sources: [
                { configMap: { name: 'cfg', items: [{ key: 'app.yaml', path: 'app.yaml' }] } },
                { secret: { name: 'tls', items: [{ key: 'tls.crt', path: 'tls/tls.crt', mode: 0o400 }] } },
              ],
            },
          },
          {
            name: 'cache',
            ephemeral: {
              volumeClaimTemplate: {
                metadata: { labels: { app: 'web' } },
                spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'fast', resources: { requests: { storage: '10Gi' } }, volumeMode: 'Filesystem' },
              },
            },
          },
          { name: 'csi', csi: { driver: 'secrets-store.csi.k8s.io', readOnly: true, volumeAttributes: { provider: 'vault' } } },
          { name: 'tools', image: { reference: 'example.com/tools:v1', pullPolicy: 'IfNotPresent' } },
          { name: 'nfs', nfs: { server: 'nfs.example.com', path: '/exports' } },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 45,
        activeDeadlineSeconds: 3600,
        dnsPolicy: 'ClusterFirst',
        dnsConfig: { nameservers: ['10.96.0.10'], searches: ['svc.cluster.local', 'example.com.'], options: [{ name: 'ndots', value: '2' }] },
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        serviceAccountName: 'default',
        serviceAccount: 'default',
        automountServiceAccountToken: false,
        hostname: 'web-0',
        subdomain: 'web',
        hostAliases: [{ ip: '10.0.0.1', hostnames: ['db.local'] }],
        securityContext: {
          fsGroup: 2000,
          runAsGroup: 3000,
          supplementalGroups: [4000],
          sysctls: [{ name: 'net.ipv4.ip_local_port_range', value: '1024 65535' }],
          fsGroupChangePolicy: 'OnRootMismatch',
        },
        imagePullSecrets: [{ name: 'registry' }],
        affinity: {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [{ matchExpressions: [{ key: 'topology.kubernetes.io/zone', operator: 'In', values: ['a', 'b'] }] }],
            },
            preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 10, preference: { matchExpressions: [{ key: 'disk', operator: 'Exists' }] } }],
          },
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
        tolerations: [{ key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule' }, ...DEFAULT_TOLERATIONS],
        topologySpreadConstraints: [
          { maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway', labelSelector: { matchLabels: { app: 'web' } } },
        ],
        priorityClassName: 'system-cluster-critical',
        priority: 2000000000,
        preemptionPolicy: 'PreemptLowerPriority',
        readinessGates: [{ conditionType: 'example.com/ready' }],
        enableServiceLinks: false,
        schedulerName: 'default-scheduler',
        os: { name: 'linux' },
      },
    };
    const created = await pods().create(structuredClone(manifest), NS);
    // Every default is already spelled out (and the token is not mounted), so nothing changes.
    expect(created.spec).toEqual(manifest.spec);
    expect(created.metadata).toMatchObject(manifest.metadata!);
    expect(created.status).toEqual({ phase: 'Pending', qosClass: 'Burstable' });
  });
});

describe('Pod admission', () => {
  it('refuses a pod whose service account does not exist (403)', async () => {
    const s = await statusOf(() =>
      pods().create(
        pod((p) => (p.spec!.serviceAccountName = 'robot')),
        NS,
      ),
    );
    expect(s).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'pods "x" is forbidden: error looking up service account default/robot: serviceaccount "robot" not found',
      details: { name: 'x', kind: 'pods' },
    });
    await cluster.client.resource(ServiceAccountKind).create({ metadata: { name: 'robot' }, imagePullSecrets: [{ name: 'pull' }] }, NS);
    const created = await pods().create(
      pod((p) => (p.spec!.serviceAccountName = 'robot')),
      NS,
    );
    expect(created.spec!.serviceAccount).toBe('robot');
    expect(created.spec!.imagePullSecrets).toEqual([{ name: 'pull' }]);
  });

  it('waits for the default service account of a brand-new namespace', async () => {
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'fresh' } });
    const created = await pods().create(pod(), { namespace: 'fresh' });
    expect(created.spec!.serviceAccountName).toBe('default');
  });

  it('answers 404 for a missing namespace before looking at service accounts', async () => {
    const s = await statusOf(() => pods().create(pod(), { namespace: 'nope' }));
    expect(s).toMatchObject({ code: 404, message: 'namespaces "nope" not found' });
  });

  it('resolves priority classes and refuses unknown ones or a conflicting priority', async () => {
    const critical = await pods().create(
      pod((p) => (p.spec!.priorityClassName = 'system-node-critical')),
      NS,
    );
    expect(critical.spec!.priority).toBe(2000001000);
    expect(
      await statusOf(() =>
        pods().create(
          pod((p) => (p.spec!.priorityClassName = 'gold')),
          NS,
        ),
      ),
    ).toMatchObject({
      code: 403,
      message: 'pods "x" is forbidden: no PriorityClass with name gold was found',
    });
    expect(
      await statusOf(() =>
        pods().create(
          pod((p) => (p.spec!.priority = 5)),
          NS,
        ),
      ),
    ).toMatchObject({
      code: 403,
      message:
        'pods "x" is forbidden: the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 0 from the given PriorityClass name',
    });
  });

  it('rejects a malformed quantity while decoding (400)', async () => {
    const s = await statusOf(() =>
      pods().create(
        pod((p) => (p.spec!.containers[0]!.resources = { limits: { cpu: 'one' } })),
        NS,
      ),
    );
    expect(s).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: `Pod in version "v1" cannot be handled as a Pod: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    });
  });

  it('warns about a name that is not a DNS label and about deprecated node labels', async () => {
    const warnings: string[] = [];
    const client = cluster.client.withWarnings((w) => warnings.push(...w)).resource(PodKind);
    await client.create(
      pod((p) => {
        p.metadata!.name = 'web.example';
        p.spec!.nodeSelector = { 'beta.kubernetes.io/arch': 'amd64' };
      }),
      NS,
    );
    expect(warnings).toEqual([
      "metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
      'spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead',
    ]);
  });
});

describe('Pod validation', () => {
  it('requires containers', async () => {
    await expectInvalid(
      pod((p) => (p.spec!.containers = [])),
      ['spec.containers: Required value'],
    );
    await expectInvalid({ metadata: { name: 'x' } }, ['spec.containers: Required value']);
    await expectInvalid({ metadata: { name: 'x' }, spec: {} as Pod['spec'] }, ['spec.containers: Required value']);
  });

  it('checks container names and their uniqueness across containers and init containers', async () => {
    await expectInvalid(
      pod((p) => (p.spec!.containers[0]!.name = 'Web')),
      [`spec.containers[0].name: Invalid value: "Web": ${LABEL_MSG}`],
    );
    await expectInvalid(
      pod((p) => p.spec!.containers.push({ name: 'c', image: 'busybox' })),
      ['spec.containers[1].name: Duplicate value: "c"'],
    );
    await expectInvalid(
      pod((p) => (p.spec!.initContainers = [{ name: 'c', image: 'busybox' }])),
      ['spec.initContainers[0].name: Duplicate value: "c"'],
    );
    await expectInvalid(
      pod((p) => delete (p.spec!.containers[0] as { name?: string }).name),
      ['spec.containers[0].name: Required value'],
    );
  });

  it('checks images', async () => {
    await expectInvalid(
      pod((p) => delete p.spec!.containers[0]!.image),
      ['spec.containers[0].image: Required value'],
    );
    await expectInvalid(
      pod((p) => (p.spec!.containers[0]!.image = ' nginx')),
      ['spec.containers[0].image: Invalid value: " nginx": must not have leading or trailing whitespace'],
    );
  });

  it('checks ports', async () => {
    await expectInvalid(
      pod(
        (p) =>
          (p.spec!.containers[0]!.ports = [
            { containerPort: 0 },
            { containerPort: 70000, hostPort: 70001 },
            { containerPort: 80, protocol: 'HTTP' },
            { containerPort: 81, name: 'http_port' },
            { containerPort: 82, name: 'a-very-long-port-name' },
            { containerPort: 83, name: 'web' },
            { containerPort: 84, name: 'web' },
          ]),
      ),
      [
        'spec.containers[0].ports[0].containerPort: Required value',
        'spec.containers[0].ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[1].hostPort: Invalid value: 70001: must be between 1 and 65535, inclusive',
        'spec.containers[0].ports[2].protocol: Unsupported value: "HTTP": supported values: "SCTP", "TCP", "UDP"',
        'spec.containers[0].ports[3].name: Invalid value: "http_port": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
        'spec.containers[0].ports[4].name: Invalid value: "a-very-long-port-name": must be no more than 15 characters',
        'spec.containers[0].ports[6].name: Duplicate value: "web"',
      ],
    );
  });

  it('checks environment variables', async () => {
    await expectInvalid(
      pod(
        (p) =>
          (p.spec!.containers[0]!.env = [
            { name: 'A=B', value: 'x' },
            { name: 'B', valueFrom: {} },
            { name: 'C', value: 'v', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
            { name: 'D', valueFrom: { fieldRef: { fieldPath: 'metadata.name' }, secretKeyRef: { name: 's', key: 'k' } } },
            { name: 'E', valueFrom: { fieldRef: { fieldPath: 'spec.restartPolicy' } } },
            { name: 'F', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'bad key' } } },
          ]),
      ),
      [
        'spec.containers[0].env[0].name: Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than \'=\'',
        'spec.containers[0].env[1].valueFrom: Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`',
        'spec.containers[0].env[2].valueFrom: Invalid value: "": may not be specified when `value` is not empty',
        'spec.containers[0].env[3].valueFrom: Invalid value: "": may not have more than one field specified at a time',
        'spec.containers[0].env[4].valueFrom.fieldRef.fieldPath: Unsupported value: "spec.restartPolicy": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
        "spec.containers[0].env[5].valueFrom.configMapKeyRef.key: Invalid value: \"bad key\": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
      ],
    );
  });

  it('checks volumes and volume mounts', async () => {
    await expectInvalid(
      pod((p) => {
        p.spec!.automountServiceAccountToken = false;
        p.spec!.volumes = [
          { name: 'Data', emptyDir: {} },
          { name: 'cache', emptyDir: {} },
          { name: 'cache', emptyDir: {} },
          { name: 'both', emptyDir: {}, hostPath: { path: '/tmp' } },
          { name: 'cfg', configMap: {} },
          { name: 'host', hostPath: { path: '/var/../etc', type: 'Folder' } },
        ];
        p.spec!.containers[0]!.volumeMounts = [
          { name: 'missing', mountPath: '/a' },
          { name: 'cache', mountPath: '/b' },
          { name: 'cache', mountPath: '/b' },
        ];
      }),
      [
        `spec.volumes[0].name: Invalid value: "Data": ${LABEL_MSG}`,
        'spec.volumes[2].name: Duplicate value: "cache"',
        'spec.volumes[3].hostPath: Forbidden: may not specify more than 1 volume type',
        'spec.volumes[4].configMap.name: Required value',
        'spec.volumes[5].hostPath.path: Invalid value: "/var/../etc": must not contain \'..\'',
        'spec.volumes[5].hostPath.type: Unsupported value: "Folder": supported values: "", "BlockDevice", "CharDevice", "Directory", "DirectoryOrCreate", "File", "FileOrCreate", "Socket"',
        'spec.containers[0].volumeMounts[0].name: Not found: "missing"',
        'spec.containers[0].volumeMounts[2].mountPath: Invalid value: "/b": must be unique',
      ],
    );
  });

  it('checks resources', async () => {
    await expectInvalid(
      pod((p) => (p.spec!.containers[0]!.resources = { requests: { cpu: '2' }, limits: { cpu: '1' } })),
      ['spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit of 1'],
    );
    await expectInvalid(
      pod((p) => (p.spec!.containers[0]!.resources = { limits: { cpu: '-1' } })),
      [
        'spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
        'spec.containers[0].resources.requests[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      ],
    );
    await expectInvalid(
      pod((p) => (p.spec!.containers[0]!.resources = { requests: { 'example.com/gpu': '1' } })),
      ['spec.containers[0].resources.limits: Required value: Limit must be set for non overcommitable resources'],
    );
    await expectInvalid(
      pod((p) => (p.spec!.containers[0]!.resources = { requests: { 'example.com/gpu': '1' }, limits: { 'example.com/gpu': '2' } })),
      ['spec.containers[0].resources.requests: Invalid value: "1": must be equal to example.com/gpu limit of 2'],
    );
    await expectInvalid(
      pod((p) => (p.spec!.containers[0]!.resources = { requests: { gpu: '1' } })),
      ['spec.containers[0].resources.requests[gpu]: Invalid value: "gpu": must be a standard resource type or fully qualified'],
    );
  });

  it('checks the enumerations with their supported values', async () => {
    await expectInvalid(
      pod((p) => {
        p.spec!.restartPolicy = 'Sometimes';
        p.spec!.dnsPolicy = 'Google';
        p.spec!.containers[0]!.imagePullPolicy = 'Sometimes';
        p.spec!.containers[0]!.terminationMessagePolicy = 'Stdout';
      }),
      [
        'spec.containers[0].terminationMessagePolicy: Unsupported value: "Stdout": supported values: "File", "FallbackToLogsOnError"',
        'spec.containers[0].imagePullPolicy: Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
        'spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
        'spec.dnsPolicy: Unsupported value: "Google": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      ],
    );
  });

  it('checks deadlines, node selectors, host names and the security context', async () => {
    await expectInvalid(
      pod((p) => {
        p.spec!.activeDeadlineSeconds = 0;
        p.spec!.nodeSelector = { 'bad key': 'v' };
        p.spec!.hostname = 'Web_0';
        p.spec!.securityContext = { runAsUser: -1 };
      }),
      [
        "spec.nodeSelector: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
        'spec.securityContext.runAsUser: Invalid value: -1: must be between 0 and 2147483647, inclusive',
        'spec.activeDeadlineSeconds: Invalid value: 0: must be between 1 and 2147483647, inclusive',
        `spec.hostname: Invalid value: "Web_0": ${LABEL_MSG}`,
      ],
    );
  });

  it('checks tolerations', async () => {
    await expectInvalid(
      pod(
        (p) =>
          (p.spec!.tolerations = [
            { key: 'a', operator: 'Exists', value: 'v' },
            { operator: 'Equal', value: 'v' },
            { key: 'b', effect: 'Sometimes' },
            { key: 'c', effect: 'NoSchedule', tolerationSeconds: 10 },
            { key: 'd', operator: 'Like' },
          ]),
      ),
      [
        'spec.tolerations[0].operator: Invalid value: "v": value must be empty when `operator` is \'Exists\'',
        'spec.tolerations[1].operator: Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
        'spec.tolerations[2].effect: Unsupported value: "Sometimes": supported values: "NoSchedule", "PreferNoSchedule", "NoExecute"',
        'spec.tolerations[3].effect: Invalid value: "NoSchedule": effect must be \'NoExecute\' when `tolerationSeconds` is set',
        'spec.tolerations[4].operator: Unsupported value: "Like": supported values: "Equal", "Exists"',
      ],
    );
  });

  it('checks probes and init containers', async () => {
    await expectInvalid(
      pod((p) => {
        p.spec!.containers[0]!.livenessProbe = { exec: { command: ['true'] }, successThreshold: 2 };
        p.spec!.containers[0]!.readinessProbe = { exec: { command: ['true'] }, tcpSocket: { port: 80 } };
        p.spec!.containers[0]!.startupProbe = {};
        p.spec!.initContainers = [{ name: 'init', image: 'busybox', livenessProbe: { exec: { command: ['true'] } } }];
      }),
      [
        'spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1',
        'spec.containers[0].readinessProbe.tcpSocket: Forbidden: may not specify more than 1 handler type',
        'spec.containers[0].startupProbe: Required value: must specify a handler type',
        'spec.initContainers[0].livenessProbe: Forbidden: may not be set for init containers without restartPolicy=Always',
      ],
    );
  });

  it('checks affinity and topology spread constraints', async () => {
    await expectInvalid(
      pod((p) => {
        p.spec!.affinity = {
          nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'Bogus' }] }] } },
          podAffinity: { preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 0, podAffinityTerm: { topologyKey: 'zone' } }] },
        };
        p.spec!.topologySpreadConstraints = [{ maxSkew: 0, topologyKey: 'zone', whenUnsatisfiable: 'Maybe', labelSelector: {} }];
      }),
      [
        'spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator: Invalid value: "Bogus": not a valid selector operator',
        'spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100',
        'spec.topologySpreadConstraints[0].maxSkew: Invalid value: 0: must be greater than zero',
        'spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported value: "Maybe": supported values: "DoNotSchedule", "ScheduleAnyway"',
      ],
    );
  });

  it('forbids ephemeral containers on create and a node name while scheduling gates remain', async () => {
    await expectInvalid(
      pod((p) => {
        p.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox' }];
        p.spec!.nodeName = 'node-1';
        p.spec!.schedulingGates = [{ name: 'gate' }];
      }),
      ['spec.ephemeralContainers: Forbidden: cannot be set on create', 'spec.nodeName: Forbidden: cannot be set until all schedulingGates have been cleared'],
    );
  });
});

describe('Pod update', () => {
  const FORBIDDEN_PREFIX =
    'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n';

  it('allows a new image and bumps the generation; metadata changes keep it', async () => {
    const created = await pods().create(pod(), NS);
    const updated = await pods().update({ ...created, spec: { ...created.spec!, containers: [{ ...created.spec!.containers[0]!, image: 'nginx:1.27' }] } }, NS);
    expect(updated.spec!.containers[0]!.image).toBe('nginx:1.27');
    expect(updated.metadata!.generation).toBe(2);
    const labelled = await pods().update({ ...updated, metadata: { ...updated.metadata, labels: { a: 'b' } } }, NS);
    expect(labelled.metadata!.generation).toBe(2);
    expect(labelled.status).toEqual({ phase: 'Pending', qosClass: 'BestEffort' });
  });

  it('takes an empty map or list for an absent one, as semantic equality does', async () => {
    const created = await pods().create(pod(), NS);
    const patched = await pods().patch('x', { spec: { nodeSelector: {}, imagePullSecrets: [] } }, { type: 'merge', namespace: 'default' });
    expect(patched.metadata!.generation).toBe(1);
    const put = await pods().update(
      { ...patched, spec: { ...patched.spec!, readinessGates: [], containers: [{ ...patched.spec!.containers[0]!, args: [] }] } },
      NS,
    );
    expect(put.metadata!.generation).toBe(1);
    // A map that is not empty is a change; so is an empty struct where a pointer was nil.
    const s = await statusOf(() => pods().patch('x', { spec: { nodeSelector: { disk: 'ssd' } } }, { type: 'merge', namespace: 'default' }));
    expect(s.message).toContain('+ \tNodeSelector: {"disk":"ssd"},');
    const t = await statusOf(() => pods().patch('x', { spec: { dnsConfig: {} } }, { type: 'merge', namespace: 'default' }));
    expect(t.message?.startsWith(`Pod "x" is invalid: ${FORBIDDEN_PREFIX}`)).toBe(true);
    expect((await pods().get('x', NS)).spec!.containers[0]!.image).toBe(created.spec!.containers[0]!.image);
  });

  it('forbids other spec changes with the Kubernetes message', async () => {
    const created = await pods().create(pod(), NS);
    const s = await statusOf(() => pods().update({ ...created, spec: { ...created.spec!, restartPolicy: 'Never' } }, NS));
    expect(s.code).toBe(422);
    expect(s.message?.startsWith(`Pod "x" is invalid: ${FORBIDDEN_PREFIX}  core.PodSpec{`)).toBe(true);
    expect(s.message).toContain('- \tRestartPolicy: "Always",\n+ \tRestartPolicy: "Never",');
    expect(s.details?.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'spec', message: s.message?.slice('Pod "x" is invalid: spec: '.length) }]);
    // nodeName is set through binding, never by an update.
    const bound = await statusOf(() => pods().update({ ...created, spec: { ...created.spec!, nodeName: 'node-1' } }, NS));
    expect(bound.message?.startsWith(`Pod "x" is invalid: ${FORBIDDEN_PREFIX}`)).toBe(true);
    expect((await pods().get('x', NS)).metadata!.resourceVersion).toBe(created.metadata!.resourceVersion);
  });

  it('forbids adding or removing containers', async () => {
    const created = await pods().create(pod(), NS);
    const s = await statusOf(() =>
      pods().update({ ...created, spec: { ...created.spec!, containers: [...created.spec!.containers, { name: 'd', image: 'busybox' }] } }, NS),
    );
    expect(s.message).toBe('Pod "x" is invalid: spec.containers: Forbidden: pod updates may not add or remove containers');
  });

  it('lets activeDeadlineSeconds be set or lowered only', async () => {
    const created = await pods().create(pod(), NS);
    const set = await pods().update({ ...created, spec: { ...created.spec!, activeDeadlineSeconds: 100 } }, NS);
    const lower = await pods().update({ ...set, spec: { ...set.spec!, activeDeadlineSeconds: 50 } }, NS);
    expect(lower.spec!.activeDeadlineSeconds).toBe(50);
    expect((await statusOf(() => pods().update({ ...lower, spec: { ...lower.spec!, activeDeadlineSeconds: 60 } }, NS))).message).toBe(
      'Pod "x" is invalid: spec.activeDeadlineSeconds: Invalid value: 60: must be less than or equal to previous value',
    );
    const { activeDeadlineSeconds: _, ...withoutDeadline } = lower.spec!;
    expect((await statusOf(() => pods().update({ ...lower, spec: withoutDeadline }, NS))).message).toBe(
      'Pod "x" is invalid: spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value',
    );
  });

  it('allows added tolerations and removed scheduling gates only', async () => {
    const created = await pods().create(
      pod((p) => (p.spec!.schedulingGates = [{ name: 'a' }, { name: 'b' }])),
      NS,
    );
    const more = await pods().update(
      {
        ...created,
        spec: { ...created.spec!, tolerations: [...created.spec!.tolerations!, { key: 'k', operator: 'Exists' }], schedulingGates: [{ name: 'b' }] },
      },
      NS,
    );
    expect(more.spec!.tolerations).toHaveLength(3);
    expect(more.spec!.schedulingGates).toEqual([{ name: 'b' }]);
    // The default tolerations come back by admission; changing an existing one is refused.
    const changed = more.spec!.tolerations!.map((t) => (t.key === 'k' ? { key: 'k', operator: 'Equal', value: 'v' } : t));
    expect((await statusOf(() => pods().update({ ...more, spec: { ...more.spec!, tolerations: changed } }, NS))).message).toBe(
      'Pod "x" is invalid: spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds',
    );
    expect((await statusOf(() => pods().update({ ...more, spec: { ...more.spec!, schedulingGates: [{ name: 'b' }, { name: 'c' }] } }, NS))).message).toBe(
      'Pod "x" is invalid: spec.schedulingGates[1].name: Forbidden: only deletion is allowed, but found new scheduling gate \'c\'',
    );
  });

  it('changes only the status through /status', async () => {
    const created = await pods().create(pod(), NS);
    const updated = await pods().updateStatus(
      { ...created, spec: { ...created.spec!, restartPolicy: 'Never' }, status: { ...created.status, phase: 'Running', podIP: '10.0.0.5' } },
      NS,
    );
    expect(updated.spec).toEqual(created.spec);
    expect(updated.status).toEqual({ phase: 'Running', qosClass: 'BestEffort', podIP: '10.0.0.5', podIPs: [{ ip: '10.0.0.5' }] });
    expect(updated.metadata!.generation).toBe(1);
  });
});

describe('Pod deletion', () => {
  it('keeps a scheduled pod for its grace period until the node (settle) lets it go', async () => {
    await pods().create(
      pod((p) => (p.spec!.nodeName = 'node-1')),
      NS,
    );
    const deleted = (await pods().delete('x', NS)) as Pod;
    expect(deleted.metadata).toMatchObject({ deletionTimestamp: '2026-01-01T00:00:30Z', deletionGracePeriodSeconds: 30, generation: 2 });
    expect((await pods().get('x', NS)).metadata!.deletionTimestamp).toBe('2026-01-01T00:00:30Z');
    await cluster.settle();
    expect(await statusOf(() => pods().get('x', NS))).toMatchObject({ code: 404, message: 'pods "x" not found' });
  });

  it('deletes an unscheduled pod at once and answers with it', async () => {
    const created = await pods().create(pod(), NS);
    const deleted = (await pods().delete('x', NS)) as Pod;
    expect(deleted.metadata!.uid).toBe(created.metadata!.uid);
    expect(await statusOf(() => pods().get('x', NS))).toMatchObject({ code: 404 });
  });
});

describe('Pod hostile input', () => {
  it('answers 4xx for huge and odd values and stores nothing', async () => {
    const long = 'a'.repeat(100_000);
    await expectInvalid(
      pod((p) => (p.spec!.containers[0]!.name = long.slice(0, 64))),
      [`spec.containers[0].name: Invalid value: "${long.slice(0, 64)}": must be no more than 63 characters`],
    );
    await expectInvalid(
      pod((p) => (p.spec!.containers[0]!.name = 'wéb')),
      [`spec.containers[0].name: Invalid value: "wéb": ${LABEL_MSG}`],
    );
    const many = await statusOf(() =>
      pods().create(
        pod((p) => (p.spec!.containers = Array.from({ length: 10_000 }, () => ({ name: 'c', image: 'nginx' })))),
        NS,
      ),
    );
    expect(many.code).toBe(422);
    expect(many.details?.causes).toHaveLength(9_999);
    expect(
      (
        await statusOf(() =>
          pods().create(
            pod((p) => (p.spec!.containers[0]!.resources = { limits: { cpu: '1'.repeat(100_000) } })),
            NS,
          ),
        )
      ).code,
    ).toBe(400);
    // Kubernetes puts no limit on an image reference; one it cannot parse is pulled IfNotPresent.
    const big = await pods().create(
      pod((p) => ((p.metadata!.name = 'big'), (p.spec!.containers[0]!.image = `${long}:latest`))),
      NS,
    );
    expect(big.spec!.containers[0]!.imagePullPolicy).toBe('IfNotPresent');
    expect((await pods().list(NS)).items.map((p) => p.metadata!.name)).toEqual(['big']);
  });

  it('never fails with anything but an API error, whatever the strings', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), fc.string({ maxLength: 20 }), async (name, image, quantity) => {
        try {
          await pods().create(
            {
              metadata: { generateName: 'f-' },
              spec: {
                containers: [{ name, image, ports: [{ containerPort: 80, name: name.slice(0, 10) }], resources: { limits: { cpu: quantity } } }],
                hostname: name,
              },
            },
            NS,
          );
        } catch (e) {
          if (!(e instanceof ApiError) || e.code >= 500) throw e;
        }
      }),
      { numRuns: 150 },
    );
  });
});
