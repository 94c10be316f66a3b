/**
 * `metadata.generation` for every built-in kind, as its Kubernetes strategy keeps it: set to 1 and
 * bumped on spec changes for Pod, StatefulSet, PodDisruptionBudget, MutatingAdmissionPolicy(+Binding) and
 * EvictionRequest; never set by the server for the others, which keep what a create sent.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { KindDefinition, KubeObject } from '../../src/schema/define-kind.js';
import * as k from '../../src/kinds/index.js';
import { useTestCluster } from '../support/cluster.js';
import { b64, csrDer, csrPem, keyPair } from './certificates/helpers.js';
import { generateServingCertificate } from '../../src/pki/self-signed.js';

let csrRequest = '';
let caBundle = '';
let pcrStub = '';

beforeAll(async () => {
  const keys = await keyPair();
  csrRequest = b64(csrPem(await csrDer(keys, { commonName: 'alice' })));
  pcrStub = b64(await csrDer(keys));
  caBundle = (await generateServingCertificate({ hosts: ['localhost'] })).ca.cert;
});

const cluster = useTestCluster();
const NS = { namespace: 'default' };

interface Case {
  readonly kind: KindDefinition;
  /** A valid object named after `name`. */
  readonly object: (name: string) => KubeObject;
}

const withoutGeneration: [string, Case][] = [
  ['Namespace', { kind: k.NamespaceKind, object: (name) => ({ metadata: { name } }) }],
  ['ConfigMap', { kind: k.ConfigMapKind, object: (name) => ({ metadata: { name }, data: { a: 'b' } }) }],
  ['Secret', { kind: k.SecretKind, object: (name) => ({ metadata: { name }, data: { a: b64('b') } }) }],
  ['ServiceAccount', { kind: k.ServiceAccountKind, object: (name) => ({ metadata: { name } }) }],
  ['Node', { kind: k.NodeKind, object: (name) => ({ metadata: { name } }) }],
  ['Service', { kind: k.ServiceKind, object: (name) => ({ metadata: { name }, spec: { ports: [{ port: 80 }] } }) }],
  [
    'PersistentVolumeClaim',
    {
      kind: k.PersistentVolumeClaimKind,
      object: (name) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }),
    },
  ],
  [
    'Event',
    {
      kind: k.EventKind,
      object: (name) => ({ metadata: { name }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' }, reason: 'R', message: 'm' }),
    },
  ],
  [
    'Event (events.k8s.io)',
    {
      kind: k.EventsV1EventKind,
      object: (name) => ({
        metadata: { name },
        eventTime: '2026-01-01T00:00:00.000000Z',
        reportingController: 'example.com/c',
        reportingInstance: 'i',
        action: 'A',
        reason: 'R',
        type: 'Normal',
        regarding: { kind: 'Pod', namespace: 'default', name: 'p' },
      }),
    },
  ],
  ['ControllerRevision', { kind: k.ControllerRevisionKind, object: (name) => ({ metadata: { name }, data: { a: 1 }, revision: 1 }) }],
  [
    'CertificateSigningRequest',
    {
      kind: k.CertificateSigningRequestKind,
      object: (name) => ({ metadata: { name }, spec: { request: csrRequest, signerName: 'example.com/signer', usages: ['client auth'] } }),
    },
  ],
  [
    'PodCertificateRequest',
    {
      kind: k.PodCertificateRequestKind,
      object: (name) => ({
        metadata: { name },
        spec: {
          signerName: 'example.com/signer',
          podName: 'pod-1',
          podUID: 'pod-uid',
          serviceAccountName: 'default',
          serviceAccountUID: 'sa-uid',
          nodeName: 'node-1',
          nodeUID: 'node-uid',
          stubPKCS10Request: pcrStub,
        },
      }),
    },
  ],
  ['Lease', { kind: k.LeaseKind, object: (name) => ({ metadata: { name }, spec: { holderIdentity: 'a' } }) }],
  [
    'LeaseCandidate',
    {
      kind: k.LeaseCandidateKind,
      object: (name) => ({
        metadata: { name },
        spec: { leaseName: 'kube-scheduler', binaryVersion: '1.36.0', emulationVersion: '1.35.0', strategy: 'OldestEmulationVersion' },
      }),
    },
  ],
  ['Endpoints', { kind: k.EndpointsKind, object: (name) => ({ metadata: { name }, subsets: [{ addresses: [{ ip: '10.0.0.1' }], ports: [{ port: 80 }] }] }) }],
  [
    'PersistentVolume',
    {
      kind: k.PersistentVolumeKind,
      object: (name) => ({ metadata: { name }, spec: { capacity: { storage: '1Gi' }, accessModes: ['ReadWriteOnce'], hostPath: { path: '/d' } } }),
    },
  ],
  ['LimitRange', { kind: k.LimitRangeKind, object: (name) => ({ metadata: { name }, spec: { limits: [{ type: 'Container', max: { cpu: '1' } }] } }) }],
  ['ResourceQuota', { kind: k.ResourceQuotaKind, object: (name) => ({ metadata: { name }, spec: { hard: { pods: '1' } } }) }],
  ['ServiceCIDR', { kind: k.ServiceCIDRKind, object: (name) => ({ metadata: { name }, spec: { cidrs: ['10.0.0.0/16'] } }) }],
  [
    'APIService',
    {
      kind: k.APIServiceKind,
      object: (name) => ({
        metadata: { name: `${name}.example.com` },
        spec: { group: 'example.com', version: name, groupPriorityMinimum: 1000, versionPriority: 15 },
      }),
    },
  ],
  [
    'CompositePodGroup',
    {
      kind: k.CompositePodGroupKind,
      object: (name) => ({
        metadata: { name },
        spec: { workloadRef: { workloadName: 'training', templateName: 'workers' }, schedulingPolicy: { gang: { minGroupCount: 2 } } },
      }),
    },
  ],
  [
    'ResourceClaim',
    {
      kind: k.ResourceClaimKind,
      object: (name) => ({ metadata: { name }, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } } }),
    },
  ],
  [
    'ResourceClaimTemplate',
    {
      kind: k.ResourceClaimTemplateKind,
      object: (name) => ({ metadata: { name }, spec: { spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.example.com' } }] } } } }),
    },
  ],
  ['ClusterTrustBundle', { kind: k.ClusterTrustBundleKind, object: (name) => ({ metadata: { name }, spec: { trustBundle: caBundle } }) }],
  [
    'Workload',
    {
      kind: k.WorkloadKind,
      object: (name) => ({ metadata: { name }, spec: { podGroupTemplates: [{ name: 'workers', schedulingPolicy: { gang: { minCount: 2 } } }] } }),
    },
  ],
  [
    'PodGroup',
    {
      kind: k.PodGroupKind,
      object: (name) => ({
        metadata: { name },
        spec: { schedulingPolicy: { basic: {} }, podGroupTemplateRef: { workload: { workloadName: 'w', podGroupTemplateName: 'workers' } } },
      }),
    },
  ],
  ['StorageVersion', { kind: k.StorageVersionKind, object: (name) => ({ metadata: { name: `apps.${name}` } }) }],
  [
    'StorageVersionMigration',
    { kind: k.StorageVersionMigrationKind, object: (name) => ({ metadata: { name }, spec: { resource: { group: 'apps', resource: 'deployments' } } }) },
  ],
  [
    'ResourcePoolStatusRequest',
    { kind: k.ResourcePoolStatusRequestKind, object: (name) => ({ metadata: { name }, spec: { driver: 'gpu.example.com', poolName: 'node-1' } }) },
  ],
  [
    'IPAddress',
    {
      kind: k.IPAddressKind,
      object: (name) => ({
        metadata: { name: name === 'g' ? '10.0.0.1' : '10.0.0.2' },
        spec: { parentRef: { resource: 'services', namespace: 'default', name: 's' } },
      }),
    },
  ],
  ['StorageClass', { kind: k.StorageClassKind, object: (name) => ({ metadata: { name }, provisioner: 'example.com/p' }) }],
  [
    'VolumeAttachment',
    {
      kind: k.VolumeAttachmentKind,
      object: (name) => ({ metadata: { name }, spec: { attacher: 'example.com', nodeName: 'n', source: { persistentVolumeName: 'pv' } } }),
    },
  ],
  ['CSINode', { kind: k.CSINodeKind, object: (name) => ({ metadata: { name }, spec: { drivers: [{ name: 'example.com', nodeID: 'n' }] } }) }],
  ['CSIStorageCapacity', { kind: k.CSIStorageCapacityKind, object: (name) => ({ metadata: { name }, storageClassName: 'sc', capacity: '1Gi' }) }],
  [
    'VolumeAttributesClass',
    { kind: k.VolumeAttributesClassKind, object: (name) => ({ metadata: { name }, driverName: 'example.com', parameters: { a: 'b' } }) },
  ],
  ['Role', { kind: k.RoleKind, object: (name) => ({ metadata: { name }, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }] }) }],
  ['ClusterRole', { kind: k.ClusterRoleKind, object: (name) => ({ metadata: { name }, rules: [{ nonResourceURLs: ['/x'], verbs: ['get'] }] }) }],
  ['RoleBinding', { kind: k.RoleBindingKind, object: (name) => ({ metadata: { name }, roleRef: { kind: 'Role', name: 'r' } }) }],
  ['ClusterRoleBinding', { kind: k.ClusterRoleBindingKind, object: (name) => ({ metadata: { name }, roleRef: { kind: 'ClusterRole', name: 'view' } }) }],
  ['RuntimeClass', { kind: k.RuntimeClassKind, object: (name) => ({ metadata: { name }, handler: 'runc' }) }],
  [
    'HorizontalPodAutoscaler',
    {
      kind: k.HorizontalPodAutoscalerKind,
      object: (name) => ({ metadata: { name }, spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 3 } }),
    },
  ],
];

interface GenerationCase extends Case {
  /** An update of the spec. */
  readonly change: (obj: KubeObject) => void;
  /** Whether a change of labels bumps the generation too (EndpointSlice). */
  readonly labelsCount?: boolean;
}

const policyRule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['pods'] };
const template = { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } };
const webhook = { name: 'check.example.com', clientConfig: { url: 'https://hooks.example.com' }, sideEffects: 'None', admissionReviewVersions: ['v1'] };
const withGeneration: [string, GenerationCase][] = [
  [
    'CustomResourceDefinition',
    {
      kind: k.CustomResourceDefinitionKind,
      object: () => ({
        metadata: { name: 'widgets.example.com' },
        spec: {
          group: 'example.com',
          names: { plural: 'widgets', kind: 'Widget' },
          scope: 'Namespaced',
          versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
        },
      }),
      change: (crd) => ((crd.spec as { names: { shortNames?: string[] } }).names.shortNames = ['wd']),
    },
  ],
  [
    'ReplicationController',
    {
      kind: k.ReplicationControllerKind,
      object: (name) => ({ metadata: { name }, spec: { template } }),
      change: (rc) => ((rc.spec as { replicas: number }).replicas = 3),
    },
  ],
  [
    'PodTemplate',
    {
      kind: k.PodTemplateKind,
      object: (name) => ({ metadata: { name }, template }),
      change: (pt) => ((pt['template'] as { metadata: { labels: Record<string, string> } }).metadata.labels = { app: 'api' }),
    },
  ],
  [
    'Job',
    {
      kind: k.JobKind,
      object: (name) => ({ metadata: { name }, spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'perl' }] } } } }),
      change: (j) => ((j.spec as { suspend: boolean }).suspend = true),
    },
  ],
  [
    'CronJob',
    {
      kind: k.CronJobKind,
      object: (name) => ({
        metadata: { name },
        spec: { schedule: '@hourly', jobTemplate: { spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'perl' }] } } } } },
      }),
      change: (c) => ((c.spec as { schedule: string }).schedule = '@daily'),
    },
  ],
  [
    'Pod',
    {
      kind: k.PodKind,
      object: (name) => ({ metadata: { name }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } }),
      change: (p) => ((p.spec as { containers: { image: string }[] }).containers[0]!.image = 'nginx:2'),
    },
  ],
  [
    'StatefulSet',
    {
      kind: k.StatefulSetKind,
      object: (name) => ({
        metadata: { name },
        spec: {
          serviceName: 'nginx',
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
        },
      }),
      change: (s) => ((s.spec as { replicas: number }).replicas = 3),
    },
  ],
  ...(['Deployment', 'ReplicaSet', 'DaemonSet'] as const).map((name): [string, GenerationCase] => [
    name,
    {
      kind: { Deployment: k.DeploymentKind, ReplicaSet: k.ReplicaSetKind, DaemonSet: k.DaemonSetKind }[name],
      object: (n) => ({
        metadata: { name: n },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx:1' }] } },
        },
      }),
      change: (o) => ((o.spec as { minReadySeconds: number }).minReadySeconds = 3),
    },
  ]),
  [
    'MutatingAdmissionPolicy',
    {
      kind: k.MutatingAdmissionPolicyKind,
      object: (name) => ({
        metadata: { name },
        spec: {
          matchConstraints: { resourceRules: [policyRule] },
          mutations: [{ patchType: 'ApplyConfiguration', applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"a": "b"}}}' } }],
          reinvocationPolicy: 'Never',
        },
      }),
      change: (p) => ((p.spec as { reinvocationPolicy: string }).reinvocationPolicy = 'IfNeeded'),
    },
  ],
  [
    'MutatingAdmissionPolicyBinding',
    {
      kind: k.MutatingAdmissionPolicyBindingKind,
      object: (name) => ({ metadata: { name }, spec: { policyName: 'p' } }),
      change: (b) => ((b.spec as { policyName: string }).policyName = 'q'),
    },
  ],
  [
    'PodDisruptionBudget',
    {
      kind: k.PodDisruptionBudgetKind,
      object: (name) => ({ metadata: { name }, spec: { minAvailable: 1 } }),
      change: (p) => ((p.spec as { minAvailable: number }).minAvailable = 2),
    },
  ],
  [
    'EvictionRequest',
    {
      kind: k.EvictionRequestKind,
      object: (name) => ({
        metadata: { name },
        spec: { target: { pod: { name: 'web-0', uid: 'bd23f542-ac79-4b44-a628-9735e18b8037' } }, requester: 'acme.io/drainer', intent: 'Eviction' },
      }),
      change: (e) => ((e.spec as { intent: string }).intent = 'Withdrawn'),
    },
  ],
  [
    'Ingress',
    {
      kind: k.IngressKind,
      object: (name) => ({ metadata: { name }, spec: { defaultBackend: { service: { name: 's', port: { number: 80 } } } } }),
      change: (i) => ((i.spec as { ingressClassName: string }).ingressClassName = 'nginx'),
    },
  ],
  [
    'IngressClass',
    {
      kind: k.IngressClassKind,
      object: (name) => ({ metadata: { name }, spec: { controller: 'example.com/c' } }),
      change: (i) => ((i.spec as { parameters: unknown }).parameters = { kind: 'P', name: 'p' }),
    },
  ],
  [
    'NetworkPolicy',
    {
      kind: k.NetworkPolicyKind,
      object: (name) => ({ metadata: { name }, spec: {} }),
      change: (n) => ((n.spec as { policyTypes: string[] }).policyTypes = ['Egress']),
    },
  ],
  [
    'EndpointSlice',
    {
      kind: k.EndpointSliceKind,
      object: (name) => ({ metadata: { name }, addressType: 'IPv4', endpoints: [{ addresses: ['10.0.0.1'] }] }),
      change: (e) => (e.endpoints = [{ addresses: ['10.0.0.2'] }]),
      labelsCount: true,
    },
  ],
  [
    'CSIDriver',
    {
      kind: k.CSIDriverKind,
      object: (name) => ({ metadata: { name }, spec: {} }),
      change: (d) => ((d.spec as { podInfoOnMount: boolean }).podInfoOnMount = true),
    },
  ],
  [
    'ValidatingWebhookConfiguration',
    {
      kind: k.ValidatingWebhookConfigurationKind,
      object: (name) => ({ metadata: { name }, webhooks: [webhook] }),
      change: (c) => ((c.webhooks as { timeoutSeconds: number }[])[0]!.timeoutSeconds = 5),
    },
  ],
  [
    'MutatingWebhookConfiguration',
    {
      kind: k.MutatingWebhookConfigurationKind,
      object: (name) => ({ metadata: { name }, webhooks: [webhook] }),
      change: (c) => ((c.webhooks as { timeoutSeconds: number }[])[0]!.timeoutSeconds = 5),
    },
  ],
  [
    'ValidatingAdmissionPolicy',
    {
      kind: k.ValidatingAdmissionPolicyKind,
      object: (name) => ({ metadata: { name }, spec: { matchConstraints: { resourceRules: [policyRule] }, validations: [{ expression: 'true' }] } }),
      change: (p) => ((p.spec as { failurePolicy: string }).failurePolicy = 'Ignore'),
    },
  ],
  [
    'ValidatingAdmissionPolicyBinding',
    {
      kind: k.ValidatingAdmissionPolicyBindingKind,
      object: (name) => ({ metadata: { name }, spec: { policyName: 'p', validationActions: ['Deny'] } }),
      change: (b) => ((b.spec as { policyName: string }).policyName = 'q'),
    },
  ],
  [
    'FlowSchema',
    {
      kind: k.FlowSchemaKind,
      object: (name) => ({ metadata: { name }, spec: { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 } }),
      change: (f) => ((f.spec as { matchingPrecedence: number }).matchingPrecedence = 5001),
    },
  ],
  [
    'PriorityLevelConfiguration',
    {
      kind: k.PriorityLevelConfigurationKind,
      object: (name) => ({ metadata: { name }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } }),
      change: (p) => ((p.spec as { limited: { nominalConcurrencyShares: number } }).limited.nominalConcurrencyShares = 7),
    },
  ],
  [
    'DeviceClass',
    {
      kind: k.DeviceClassKind,
      object: (name) => ({ metadata: { name }, spec: { selectors: [{ cel: { expression: 'true' } }] } }),
      change: (c) => ((c.spec as { extendedResourceName: string }).extendedResourceName = 'example.com/gpu'),
    },
  ],
  [
    'ResourceSlice',
    {
      kind: k.ResourceSliceKind,
      object: (name) => ({
        metadata: { name },
        spec: { driver: 'gpu.example.com', pool: { name: 'node-1', generation: 1, resourceSliceCount: 1 }, nodeName: 'node-1', devices: [{ name: 'gpu-0' }] },
      }),
      change: (s) => ((s.spec as { pool: { generation: number } }).pool.generation = 2),
    },
  ],
  [
    'DeviceTaintRule',
    {
      kind: k.DeviceTaintRuleKind,
      object: (name) => ({
        metadata: { name },
        spec: { deviceSelector: { driver: 'gpu.example.com' }, taint: { key: 'example.com/broken', effect: 'NoSchedule' } },
      }),
      change: (r) => ((r.spec as { taint: { value: string } }).taint.value = 'yes'),
    },
  ],
];

const client = (kind: KindDefinition) => cluster.client.resource(kind);
const options = (kind: KindDefinition) => (kind.scope === 'Namespaced' ? NS : {});
const withGenerationSent = (obj: KubeObject, generation: number): KubeObject => ({ ...obj, metadata: { ...obj.metadata, generation } });

describe('kinds without a generation', () => {
  it.each(withoutGeneration)('%s: none unless sent; a sent one is kept, an update never changes it', async (_name, { kind, object }) => {
    const r = client(kind);
    const plain = await r.create(object('g'), options(kind));
    expect(plain.metadata?.generation).toBeUndefined();

    const sent = await r.create(withGenerationSent(object('g2'), 5), options(kind));
    expect(sent.metadata?.generation).toBe(5);
    const relabelled = await r.update({ ...sent, metadata: { ...sent.metadata, generation: 9, labels: { changed: 'yes' } } }, options(kind));
    expect(relabelled.metadata?.labels).toMatchObject({ changed: 'yes' });
    expect(relabelled.metadata?.generation).toBe(5);
  });

  it('declares none', () => {
    expect(withoutGeneration.map(([, c]) => c.kind.generation)).toEqual(withoutGeneration.map(() => false));
  });
});

describe('kinds with a generation', () => {
  it.each(withGeneration)('%s: 1 on create whatever was sent, bumped by a spec change only', async (_name, { kind, object, change, labelsCount }) => {
    const r = client(kind);
    const created = await r.create(withGenerationSent(object('g'), 5), options(kind));
    expect(created.metadata?.generation).toBe(1);
    const relabelled = await r.update({ ...created, metadata: { ...created.metadata, labels: { changed: 'yes' } } }, options(kind));
    const afterLabels = labelsCount ? 2 : 1;
    expect(relabelled.metadata?.generation).toBe(afterLabels);
    const next = structuredClone(relabelled) as KubeObject;
    change(next);
    const changed = await r.update(next, options(kind));
    expect(changed.metadata?.generation).toBe(afterLabels + 1);
  });

  it('PriorityClass: 1 on create whatever was sent, never bumped (pkg/registry/scheduling/priorityclass/strategy.go)', async () => {
    const r = client(k.PriorityClassKind);
    const created = await r.create(withGenerationSent({ metadata: { name: 'g' }, value: 1 }, 5));
    expect(created.metadata?.generation).toBe(1);
    const changed = await r.update({ ...created, description: 'changed', metadata: { ...created.metadata, generation: 9 } });
    expect(changed.metadata?.generation).toBe(1);
  });

  it('every built-in kind is covered above', () => {
    // ComponentStatus (get and list of computed objects), Binding and the reviews (create only, never stored) are never updated.
    const neverUpdated = [k.ComponentStatusKind, k.BindingKind, ...k.authenticationKinds, ...k.authorizationKinds];
    const covered = new Set([...withoutGeneration, ...withGeneration].map(([, c]) => c.kind).concat(neverUpdated));
    covered.add(k.PriorityClassKind);
    expect(k.builtinKinds.filter((kind) => !covered.has(kind)).map((kind) => kind.kind)).toEqual([]);
  });
});
