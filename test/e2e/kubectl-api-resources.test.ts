/**
 * `kubectl api-versions` and `kubectl api-resources -o wide` (kubectl 1.33) against `memkube serve`
 * print what a Kubernetes v1.36 server answers: every group/version, and every resource with its
 * short names, preferred version, scope, kind, verbs and categories. The expected table is written
 * from Kubernetes' registries (each resource's storage.go: ShortNames, Categories, and the verbs its
 * REST storage implements), not from memkube's own answers.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

const GROUP_VERSIONS = [
  'admissionregistration.k8s.io/v1',
  'admissionregistration.k8s.io/v1alpha1',
  'admissionregistration.k8s.io/v1beta1',
  'apiextensions.k8s.io/v1',
  'apiregistration.k8s.io/v1',
  'apps/v1',
  'authentication.k8s.io/v1',
  'authorization.k8s.io/v1',
  'autoscaling/v1',
  'autoscaling/v2',
  'batch/v1',
  'certificates.k8s.io/v1',
  'certificates.k8s.io/v1alpha1',
  'certificates.k8s.io/v1beta1',
  'coordination.k8s.io/v1',
  'coordination.k8s.io/v1alpha2',
  'coordination.k8s.io/v1beta1',
  'discovery.k8s.io/v1',
  'events.k8s.io/v1',
  'flowcontrol.apiserver.k8s.io/v1',
  'internal.apiserver.k8s.io/v1alpha1',
  'lifecycle.k8s.io/v1alpha1',
  'networking.k8s.io/v1',
  'networking.k8s.io/v1beta1',
  'node.k8s.io/v1',
  'policy/v1',
  'rbac.authorization.k8s.io/v1',
  'resource.k8s.io/v1',
  'resource.k8s.io/v1alpha3',
  'resource.k8s.io/v1beta1',
  'resource.k8s.io/v1beta2',
  'scheduling.k8s.io/v1',
  'scheduling.k8s.io/v1alpha2',
  'scheduling.k8s.io/v1alpha3',
  'storage.k8s.io/v1',
  'storage.k8s.io/v1beta1',
  'storagemigration.k8s.io/v1beta1',
  'v1',
];

const ALL = 'create,delete,deletecollection,get,list,patch,update,watch';
const NO_COLLECTION = 'create,delete,get,list,patch,update,watch';

/** name, short names, apiVersion, namespaced, kind, verbs, categories. */
type Row = [string, string, string, boolean, string, string, string];
const RESOURCES: Row[] = [
  ['bindings', '', 'v1', true, 'Binding', 'create', ''],
  ['componentstatuses', 'cs', 'v1', false, 'ComponentStatus', 'get,list', ''],
  ['configmaps', 'cm', 'v1', true, 'ConfigMap', ALL, ''],
  ['endpoints', 'ep', 'v1', true, 'Endpoints', ALL, ''],
  ['events', 'ev', 'v1', true, 'Event', ALL, ''],
  ['limitranges', 'limits', 'v1', true, 'LimitRange', ALL, ''],
  ['namespaces', 'ns', 'v1', false, 'Namespace', NO_COLLECTION, ''],
  ['nodes', 'no', 'v1', false, 'Node', ALL, ''],
  ['persistentvolumeclaims', 'pvc', 'v1', true, 'PersistentVolumeClaim', ALL, ''],
  ['persistentvolumes', 'pv', 'v1', false, 'PersistentVolume', ALL, ''],
  ['pods', 'po', 'v1', true, 'Pod', ALL, 'all'],
  ['podtemplates', '', 'v1', true, 'PodTemplate', ALL, ''],
  ['replicationcontrollers', 'rc', 'v1', true, 'ReplicationController', ALL, 'all'],
  ['resourcequotas', 'quota', 'v1', true, 'ResourceQuota', ALL, ''],
  ['secrets', '', 'v1', true, 'Secret', ALL, ''],
  ['serviceaccounts', 'sa', 'v1', true, 'ServiceAccount', ALL, ''],
  ['services', 'svc', 'v1', true, 'Service', ALL, 'all'],
  ['mutatingadmissionpolicies', '', 'admissionregistration.k8s.io/v1', false, 'MutatingAdmissionPolicy', ALL, 'api-extensions'],
  ['mutatingadmissionpolicybindings', '', 'admissionregistration.k8s.io/v1', false, 'MutatingAdmissionPolicyBinding', ALL, 'api-extensions'],
  ['mutatingwebhookconfigurations', '', 'admissionregistration.k8s.io/v1', false, 'MutatingWebhookConfiguration', ALL, 'api-extensions'],
  ['validatingadmissionpolicies', '', 'admissionregistration.k8s.io/v1', false, 'ValidatingAdmissionPolicy', ALL, 'api-extensions'],
  ['validatingadmissionpolicybindings', '', 'admissionregistration.k8s.io/v1', false, 'ValidatingAdmissionPolicyBinding', ALL, 'api-extensions'],
  ['validatingwebhookconfigurations', '', 'admissionregistration.k8s.io/v1', false, 'ValidatingWebhookConfiguration', ALL, 'api-extensions'],
  ['customresourcedefinitions', 'crd,crds', 'apiextensions.k8s.io/v1', false, 'CustomResourceDefinition', ALL, 'api-extensions'],
  ['apiservices', '', 'apiregistration.k8s.io/v1', false, 'APIService', ALL, 'api-extensions'],
  ['controllerrevisions', '', 'apps/v1', true, 'ControllerRevision', ALL, ''],
  ['daemonsets', 'ds', 'apps/v1', true, 'DaemonSet', ALL, 'all'],
  ['deployments', 'deploy', 'apps/v1', true, 'Deployment', ALL, 'all'],
  ['replicasets', 'rs', 'apps/v1', true, 'ReplicaSet', ALL, 'all'],
  ['statefulsets', 'sts', 'apps/v1', true, 'StatefulSet', ALL, 'all'],
  ['selfsubjectreviews', '', 'authentication.k8s.io/v1', false, 'SelfSubjectReview', 'create', ''],
  ['tokenreviews', '', 'authentication.k8s.io/v1', false, 'TokenReview', 'create', ''],
  ['localsubjectaccessreviews', '', 'authorization.k8s.io/v1', true, 'LocalSubjectAccessReview', 'create', ''],
  ['selfsubjectaccessreviews', '', 'authorization.k8s.io/v1', false, 'SelfSubjectAccessReview', 'create', ''],
  ['selfsubjectrulesreviews', '', 'authorization.k8s.io/v1', false, 'SelfSubjectRulesReview', 'create', ''],
  ['subjectaccessreviews', '', 'authorization.k8s.io/v1', false, 'SubjectAccessReview', 'create', ''],
  ['horizontalpodautoscalers', 'hpa', 'autoscaling/v2', true, 'HorizontalPodAutoscaler', ALL, 'all'],
  ['cronjobs', 'cj', 'batch/v1', true, 'CronJob', ALL, 'all'],
  ['jobs', '', 'batch/v1', true, 'Job', ALL, 'all'],
  ['certificatesigningrequests', 'csr', 'certificates.k8s.io/v1', false, 'CertificateSigningRequest', ALL, ''],
  ['podcertificaterequests', '', 'certificates.k8s.io/v1', true, 'PodCertificateRequest', ALL, ''],
  ['clustertrustbundles', '', 'certificates.k8s.io/v1beta1', false, 'ClusterTrustBundle', ALL, ''],
  ['leases', '', 'coordination.k8s.io/v1', true, 'Lease', ALL, ''],
  ['leasecandidates', '', 'coordination.k8s.io/v1beta1', true, 'LeaseCandidate', ALL, ''],
  ['endpointslices', '', 'discovery.k8s.io/v1', true, 'EndpointSlice', ALL, ''],
  ['events', 'ev', 'events.k8s.io/v1', true, 'Event', ALL, ''],
  ['flowschemas', '', 'flowcontrol.apiserver.k8s.io/v1', false, 'FlowSchema', ALL, ''],
  ['prioritylevelconfigurations', '', 'flowcontrol.apiserver.k8s.io/v1', false, 'PriorityLevelConfiguration', ALL, ''],
  ['storageversions', '', 'internal.apiserver.k8s.io/v1alpha1', false, 'StorageVersion', ALL, ''],
  ['evictionrequests', '', 'lifecycle.k8s.io/v1alpha1', true, 'EvictionRequest', ALL, ''],
  ['ingressclasses', '', 'networking.k8s.io/v1', false, 'IngressClass', ALL, ''],
  ['ingresses', 'ing', 'networking.k8s.io/v1', true, 'Ingress', ALL, ''],
  ['ipaddresses', 'ip', 'networking.k8s.io/v1', false, 'IPAddress', ALL, ''],
  ['networkpolicies', 'netpol', 'networking.k8s.io/v1', true, 'NetworkPolicy', ALL, ''],
  ['servicecidrs', '', 'networking.k8s.io/v1', false, 'ServiceCIDR', ALL, ''],
  ['runtimeclasses', '', 'node.k8s.io/v1', false, 'RuntimeClass', ALL, ''],
  ['poddisruptionbudgets', 'pdb', 'policy/v1', true, 'PodDisruptionBudget', ALL, ''],
  ['clusterrolebindings', '', 'rbac.authorization.k8s.io/v1', false, 'ClusterRoleBinding', ALL, ''],
  ['clusterroles', '', 'rbac.authorization.k8s.io/v1', false, 'ClusterRole', ALL, ''],
  ['rolebindings', '', 'rbac.authorization.k8s.io/v1', true, 'RoleBinding', ALL, ''],
  ['roles', '', 'rbac.authorization.k8s.io/v1', true, 'Role', ALL, ''],
  ['deviceclasses', '', 'resource.k8s.io/v1', false, 'DeviceClass', ALL, ''],
  ['resourceclaims', '', 'resource.k8s.io/v1', true, 'ResourceClaim', ALL, ''],
  ['resourceclaimtemplates', '', 'resource.k8s.io/v1', true, 'ResourceClaimTemplate', ALL, ''],
  ['resourceslices', '', 'resource.k8s.io/v1', false, 'ResourceSlice', ALL, ''],
  ['devicetaintrules', '', 'resource.k8s.io/v1beta2', false, 'DeviceTaintRule', ALL, ''],
  ['resourcepoolstatusrequests', '', 'resource.k8s.io/v1alpha3', false, 'ResourcePoolStatusRequest', ALL, ''],
  ['priorityclasses', 'pc', 'scheduling.k8s.io/v1', false, 'PriorityClass', ALL, ''],
  ['podgroups', '', 'scheduling.k8s.io/v1alpha2', true, 'PodGroup', ALL, ''],
  ['workloads', '', 'scheduling.k8s.io/v1alpha2', true, 'Workload', ALL, ''],
  ['compositepodgroups', '', 'scheduling.k8s.io/v1alpha3', true, 'CompositePodGroup', ALL, ''],
  ['csidrivers', '', 'storage.k8s.io/v1', false, 'CSIDriver', ALL, ''],
  ['csinodes', '', 'storage.k8s.io/v1', false, 'CSINode', ALL, ''],
  ['csistoragecapacities', '', 'storage.k8s.io/v1', true, 'CSIStorageCapacity', ALL, ''],
  ['storageclasses', 'sc', 'storage.k8s.io/v1', false, 'StorageClass', ALL, ''],
  ['volumeattachments', '', 'storage.k8s.io/v1', false, 'VolumeAttachment', ALL, ''],
  ['volumeattributesclasses', 'vac', 'storage.k8s.io/v1', false, 'VolumeAttributesClass', ALL, ''],
  ['storageversionmigrations', '', 'storagemigration.k8s.io/v1beta1', false, 'StorageVersionMigration', ALL, ''],
];

/** The rows of a kubectl table, cut at the header's column starts. */
function parseTable(text: string): Record<string, string>[] {
  const [header, ...lines] = text.trimEnd().split('\n');
  const starts = [...header!.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index }));
  return lines.map((line) => Object.fromEntries(starts.map((c, i) => [c.name, line.slice(c.at, starts[i + 1]?.at ?? line.length).trim()])));
}

const verbs = (cell: string) =>
  cell
    .replace(/^\[|\]$/g, '')
    .split(' ')
    .filter(Boolean)
    .sort()
    .join(',');

describe.skipIf(!existsSync(KUBECTL))('kubectl api-versions and api-resources against memkube serve', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  const { ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-api-'));
    server = await startServe(join(dir, 'kubeconfig'));
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('api-versions prints every served group/version', async () => {
    expect((await ok('api-versions')).trim().split('\n')).toEqual(GROUP_VERSIONS);
  });

  it('api-resources -o wide lists every resource as a v1.36 server does', async () => {
    const rows = parseTable(await ok('api-resources', '-o', 'wide'));
    const got = rows.map((r) => [
      r.NAME!,
      r.SHORTNAMES!,
      r.APIVERSION!,
      r.NAMESPACED === 'true',
      r.KIND!,
      verbs(r.VERBS!),
      r
        .CATEGORIES!.replace(/^\[|\]$/g, '')
        .split(' ')
        .filter(Boolean)
        .join(','),
    ]);
    const key = (r: Row | (string | boolean)[]) => `${String(r[2])} ${String(r[0])}`;
    expect(got.map(key).sort()).toEqual(RESOURCES.map(key).sort());
    for (const row of RESOURCES)
      expect(
        got.find((g) => key(g) === key(row)),
        key(row),
      ).toEqual(row);
  });

  it('api-resources answers by category and scope as kubectl get all relies on', async () => {
    const names = (await ok('api-resources', '--categories=all', '-o', 'name')).trim().split('\n').sort();
    expect(names).toEqual(
      RESOURCES.filter((r) => r[6].split(',').includes('all'))
        .map((r) => (r[2].includes('/') ? `${r[0]}.${r[2].split('/')[0]}` : r[0]))
        .sort(),
    );
    const clusterScoped = (await ok('api-resources', '--namespaced=false', '-o', 'name')).trim().split('\n');
    expect(clusterScoped).toContain('customresourcedefinitions.apiextensions.k8s.io');
    expect(clusterScoped).not.toContain('pods');
  });
});
