/**
 * The defaults Kubernetes applies to every Pod it decodes (`SetObjectDefaults_Pod` with the v1
 * defaulters of `pkg/apis/core/v1/defaults.go`, plus the v1 conversion quirks that have the same
 * effect: `serviceAccount` mirrors `serviceAccountName`, a negative grace period becomes 1,
 * `podIP` mirrors `podIPs[0]`), and the smaller set a pod template gets. Idempotent: it runs on
 * every write, as decoding does.
 */
import type { Container, EphemeralContainer, Pod, PodSpec, PodTemplateSpec, Probe, ResourceRequirements, Volume } from '../../types/core-v1.js';
import type { Quantity } from '../../../schema/quantity.js';
import { normalizeQuantity, normalizeResourceList, quantityText, quantityValue } from '../resource-lists.js';
import { hasOwn, setOwn } from '../../../util/own.js';

type AnyContainer = Container | EphemeralContainer;

/** The containers of a spec (regular and init; ephemeral separately). */
function containersOf(spec: PodSpec): AnyContainer[] {
  return [...(spec.initContainers ?? []), ...spec.containers, ...(spec.ephemeralContainers ?? [])];
}

/** Applies the decode-time defaults to a Pod in place. Throws `QuantityDecodeError` for a malformed quantity. */
export function applyPodDefaults(pod: Pod): void {
  const spec = (pod.spec ??= { containers: [] });
  spec.containers ??= [];
  normalizePodQuantities(pod);
  convertPodSpec(spec);
  // Pod (not PodSpec) conversion, `Convert_v1_Pod_To_core_Pod`: a negative grace period is forced
  // to 1; a pod template keeps what was written.
  if (spec.terminationGracePeriodSeconds !== undefined && spec.terminationGracePeriodSeconds < 0) spec.terminationGracePeriodSeconds = 1;
  // SetDefaults_Pod: defaults that only a Pod gets, never a pod template.
  defaultLimitsToRequests(spec.containers);
  defaultLimitsToRequests(spec.initContainers ?? []);
  defaultPodLevelResources(spec);
  spec.enableServiceLinks ??= true;
  if (spec.hostNetwork) {
    for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
      for (const port of c.ports ?? []) if (!port.hostPort) port.hostPort = port.containerPort;
    }
  }
  applyPodSpecDefaults(spec);
  if (pod.status) defaultPodStatus(pod.status);
}

/**
 * Applies the defaults of a pod template (a StatefulSet's `spec.template`, ...) in place: those of
 * `SetObjectDefaults_<Kind>` for the embedded PodSpec, without `SetDefaults_Pod` (requests from
 * limits, pod-level resources, `enableServiceLinks`, host ports) and without the Pod conversion's
 * grace-period fix. Throws `QuantityDecodeError` for a malformed quantity.
 */
export function applyPodTemplateDefaults(template: PodTemplateSpec): void {
  const spec = (template.spec ??= { containers: [] });
  spec.containers ??= [];
  normalizePodQuantities({ spec });
  convertPodSpec(spec);
  applyPodSpecDefaults(spec);
}

/** SetDefaults_PodSpec and the defaults of what a PodSpec holds (volumes, containers). */
function applyPodSpecDefaults(spec: PodSpec): void {
  if (!spec.dnsPolicy) spec.dnsPolicy = 'ClusterFirst';
  if (!spec.restartPolicy) spec.restartPolicy = 'Always';
  spec.securityContext ??= {};
  spec.terminationGracePeriodSeconds ??= 30;
  if (!spec.schedulerName) spec.schedulerName = 'default-scheduler';
  for (const volume of spec.volumes ?? []) defaultVolume(volume);
  for (const c of containersOf(spec)) defaultContainer(c);
}

/** What v1 → internal → v1 conversion changes in a PodSpec (a Pod's or a template's). */
function convertPodSpec(spec: PodSpec): void {
  if (!spec.serviceAccountName && spec.serviceAccount) spec.serviceAccountName = spec.serviceAccount;
  if (spec.serviceAccountName) spec.serviceAccount = spec.serviceAccountName;
  else delete spec.serviceAccount;
}

/** SetDefaults_Pod: a limit without a request makes the request equal to the limit. */
function defaultLimitsToRequests(containers: Container[]): void {
  for (const c of containers) {
    const limits = c.resources?.limits;
    if (!limits) continue;
    const requests = (c.resources!.requests ??= {});
    for (const [name, value] of Object.entries(limits)) if (!hasOwn(requests, name)) setOwn(requests, name, value);
  }
}

const POD_LEVEL_RESOURCES = (name: string): boolean => name === 'cpu' || name === 'memory' || name.startsWith('hugepages-');
const OVERCOMMITTABLE = (name: string): boolean => !name.startsWith('hugepages-') && (!name.includes('/') || name.includes('kubernetes.io/'));

/**
 * Sums (and maxes, for init containers) container values of one resource, as
 * `AggregateContainerRequests` / `AggregateContainerLimits` do; the format is that of the first value.
 */
export function aggregate(spec: PodSpec, pick: (r: ResourceRequirements | undefined) => Record<string, string | number> | undefined): Map<string, Quantity> {
  const add = (m: Map<string, Quantity>, list: Record<string, string | number> | undefined) => {
    for (const [name, value] of Object.entries(list ?? {})) {
      const q = quantityValue(value);
      if (!q) continue;
      const prev = m.get(name);
      m.set(name, prev ? { nanos: prev.nanos + q.nanos, format: prev.format } : q);
    }
  };
  const sum = new Map<string, Quantity>();
  for (const c of spec.containers) add(sum, pick(c.resources));
  const sidecars = new Map<string, Quantity>();
  const initMax = new Map<string, Quantity>();
  for (const c of spec.initContainers ?? []) {
    if (c.restartPolicy === 'Always') {
      add(sum, pick(c.resources));
      add(sidecars, pick(c.resources));
      continue;
    }
    const own = new Map<string, Quantity>(sidecars);
    add(own, pick(c.resources));
    for (const [name, q] of own) if (q.nanos > (initMax.get(name)?.nanos ?? 0n)) initMax.set(name, q);
  }
  for (const [name, q] of initMax) if (q.nanos > (sum.get(name)?.nanos ?? 0n)) sum.set(name, q);
  return sum;
}

/** SetDefaults_Pod with PodLevelResources (beta, on): `defaultHugePagePodLimits`, `defaultPodRequests`. */
function defaultPodLevelResources(spec: PodSpec): void {
  const resources = spec.resources;
  if (!resources) return;
  if (Object.keys(resources.limits ?? {}).length > 0 || Object.keys(resources.requests ?? {}).length > 0) {
    const limits = { ...resources.limits };
    for (const [name, q] of aggregate(spec, (r) => r?.limits)) {
      if (!name.startsWith('hugepages-') || hasOwn(resources.requests ?? {}, name) || hasOwn(limits, name)) continue;
      limits[name] = quantityText(q);
    }
    if (Object.keys(limits).length > 0) resources.limits = limits;
  }
  if (Object.keys(resources.limits ?? {}).length === 0) return;
  const requests = { ...resources.requests };
  for (const [name, q] of aggregate(spec, (r) => r?.requests)) {
    if (!hasOwn(requests, name) && POD_LEVEL_RESOURCES(name) && OVERCOMMITTABLE(name)) setOwn(requests, name, quantityText(q));
  }
  for (const [name, value] of Object.entries(resources.limits ?? {})) if (!hasOwn(requests, name) && POD_LEVEL_RESOURCES(name)) setOwn(requests, name, value);
  if (Object.keys(requests).length > 0) resources.requests = requests;
}

/** SetDefaults_Container, ports, env, probes, lifecycle handlers. */
function defaultContainer(c: AnyContainer): void {
  if (!c.imagePullPolicy) c.imagePullPolicy = imageTag(c.image ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
  if (!c.terminationMessagePath) c.terminationMessagePath = '/dev/termination-log';
  if (!c.terminationMessagePolicy) c.terminationMessagePolicy = 'File';
  // ResourceRequirements is a struct, so Go always writes it.
  c.resources ??= {};
  for (const port of c.ports ?? []) if (!port.protocol) port.protocol = 'TCP';
  for (const env of c.env ?? []) {
    const from = env.valueFrom;
    if (from?.fieldRef && !from.fieldRef.apiVersion) from.fieldRef.apiVersion = 'v1';
    if (from?.fileKeyRef) from.fileKeyRef.optional ??= false;
  }
  for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) if (probe) defaultProbe(probe);
  for (const handler of [c.lifecycle?.postStart, c.lifecycle?.preStop]) if (handler?.httpGet) defaultHttpGet(handler.httpGet);
}

function defaultProbe(probe: Probe): void {
  if (!probe.timeoutSeconds) probe.timeoutSeconds = 1;
  if (!probe.periodSeconds) probe.periodSeconds = 10;
  if (!probe.successThreshold) probe.successThreshold = 1;
  if (!probe.failureThreshold) probe.failureThreshold = 3;
  if (probe.httpGet) defaultHttpGet(probe.httpGet);
  if (probe.grpc) probe.grpc.service ??= '';
}

function defaultHttpGet(action: { path?: string; scheme?: string }): void {
  if (!action.path) action.path = '/';
  if (!action.scheme) action.scheme = 'HTTP';
}

/** The volume sources a v1 Volume can name (everything but `name`). */
const VOLUME_SOURCES = [
  'awsElasticBlockStore',
  'azureDisk',
  'azureFile',
  'cephfs',
  'cinder',
  'configMap',
  'csi',
  'downwardAPI',
  'emptyDir',
  'ephemeral',
  'fc',
  'flexVolume',
  'flocker',
  'gcePersistentDisk',
  'gitRepo',
  'glusterfs',
  'hostPath',
  'image',
  'iscsi',
  'nfs',
  'persistentVolumeClaim',
  'photonPersistentDisk',
  'portworxVolume',
  'projected',
  'quobyte',
  'rbd',
  'scaleIO',
  'secret',
  'storageos',
  'vsphereVolume',
] as const;

/** The names of the sources a volume sets. */
export function volumeSourcesOf(volume: Volume): string[] {
  return VOLUME_SOURCES.filter((s) => volume[s] !== undefined && volume[s] !== null);
}

/** SetDefaults_Volume and the per-source defaults. */
function defaultVolume(v: Volume): void {
  if (volumeSourcesOf(v).length === 0) v.emptyDir = {};
  if (v.hostPath) v.hostPath.type ??= '';
  if (v.secret) v.secret.defaultMode ??= 420;
  if (v.configMap) v.configMap.defaultMode ??= 420;
  if (v.iscsi && !v.iscsi.iscsiInterface) v.iscsi.iscsiInterface = 'default';
  if (v.rbd) {
    if (!v.rbd.pool) v.rbd.pool = 'rbd';
    if (!v.rbd.user) v.rbd.user = 'admin';
    if (!v.rbd.keyring) v.rbd.keyring = '/etc/ceph/keyring';
  }
  if (v.downwardAPI) {
    v.downwardAPI.defaultMode ??= 420;
    for (const item of v.downwardAPI.items ?? []) if (item.fieldRef && !item.fieldRef.apiVersion) item.fieldRef.apiVersion = 'v1';
  }
  if (v.azureDisk) {
    v.azureDisk.cachingMode ??= 'ReadWrite';
    v.azureDisk.fsType ??= 'ext4';
    v.azureDisk.readOnly ??= false;
    v.azureDisk.kind ??= 'Shared';
  }
  if (v.projected) {
    v.projected.defaultMode ??= 420;
    for (const source of v.projected.sources ?? []) {
      for (const item of source.downwardAPI?.items ?? []) if (item.fieldRef && !item.fieldRef.apiVersion) item.fieldRef.apiVersion = 'v1';
      if (source.serviceAccountToken) source.serviceAccountToken.expirationSeconds ??= 3600;
    }
  }
  if (v.scaleIO) {
    if (!v.scaleIO.storageMode) v.scaleIO.storageMode = 'ThinProvisioned';
    if (!v.scaleIO.fsType) v.scaleIO.fsType = 'xfs';
  }
  const template = v.ephemeral?.volumeClaimTemplate;
  if (template) {
    // ObjectMeta and VolumeResourceRequirements are structs: Go always writes them.
    template.metadata ??= {};
    template.spec.resources ??= {};
    template.spec.volumeMode ??= 'Filesystem';
  }
  if (v.image && !v.image.pullPolicy) v.image.pullPolicy = imageTag(v.image.reference ?? '') === 'latest' ? 'Always' : 'IfNotPresent';
}

/** Pod status defaults and conversion: `podIP` and `podIPs[0]` agree (podIP wins); struct fields written. */
function defaultPodStatus(status: NonNullable<Pod['status']>): void {
  if (status.podIP && (!status.podIPs?.length || status.podIPs[0]!.ip !== status.podIP)) status.podIPs = [{ ip: status.podIP }];
  else if (!status.podIP && status.podIPs?.length) status.podIP = status.podIPs[0]!.ip;
}

/** Every quantity of a Pod in the text Kubernetes stores (resource lists rounded up to milli-units). */
function normalizePodQuantities(pod: Pod): void {
  const spec = pod.spec!;
  for (const c of containersOf(spec)) {
    normalizeResourceList(c.resources?.limits);
    normalizeResourceList(c.resources?.requests);
    for (const env of c.env ?? []) {
      const ref = env.valueFrom?.resourceFieldRef;
      if (ref?.divisor !== undefined) ref.divisor = normalizeQuantity(ref.divisor, false);
    }
  }
  normalizeResourceList(spec.overhead);
  normalizeResourceList(spec.resources?.limits);
  normalizeResourceList(spec.resources?.requests);
  for (const v of spec.volumes ?? []) {
    if (v.emptyDir?.sizeLimit !== undefined) v.emptyDir.sizeLimit = normalizeQuantity(v.emptyDir.sizeLimit, false);
    const claim = v.ephemeral?.volumeClaimTemplate?.spec.resources;
    normalizeResourceList(claim?.limits);
    normalizeResourceList(claim?.requests);
    for (const item of v.downwardAPI?.items ?? []) {
      if (item.resourceFieldRef?.divisor !== undefined) item.resourceFieldRef.divisor = normalizeQuantity(item.resourceFieldRef.divisor, false);
    }
    for (const source of v.projected?.sources ?? []) {
      for (const item of source.downwardAPI?.items ?? []) {
        if (item.resourceFieldRef?.divisor !== undefined) item.resourceFieldRef.divisor = normalizeQuantity(item.resourceFieldRef.divisor, false);
      }
    }
  }
  const status = pod.status;
  if (status) {
    normalizeResourceList(status.allocatedResources);
    normalizeResourceList(status.resources?.limits);
    normalizeResourceList(status.resources?.requests);
    for (const cs of [...(status.containerStatuses ?? []), ...(status.initContainerStatuses ?? []), ...(status.ephemeralContainerStatuses ?? [])]) {
      normalizeResourceList(cs.allocatedResources);
      normalizeResourceList(cs.resources?.limits);
      normalizeResourceList(cs.resources?.requests);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Image references (github.com/distribution/reference, as `parsers.ParseImageName` uses it)
// ---------------------------------------------------------------------------------------------

const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*';
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const REFERENCE = new RegExp(`^((?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*)(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const DIGEST_LENGTHS: Record<string, number> = { sha256: 64, sha384: 96, sha512: 128 };

/**
 * The tag `parsers.ParseImageName` finds in an image reference: `latest` when there is neither tag
 * nor digest, `''` for a digest-only reference, undefined when the reference does not parse.
 */
export function imageTag(image: string): string | undefined {
  if (image.length === 0 || image.length > 600 || /^[a-f0-9]{64}$/.test(image)) return undefined;
  const slash = image.indexOf('/');
  const first = slash < 0 ? '' : image.slice(0, slash);
  let domain = 'docker.io';
  let remainder = image;
  if (slash >= 0 && (/[.:]/.test(first) || first === 'localhost' || first.toLowerCase() !== first)) {
    domain = first;
    remainder = image.slice(slash + 1);
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !remainder.includes('/')) remainder = `library/${remainder}`;
  const colon = remainder.indexOf(':');
  const remoteName = colon < 0 ? remainder : remainder.slice(0, colon);
  if (remoteName.toLowerCase() !== remoteName) return undefined;
  const m = REFERENCE.exec(`${domain}/${remainder}`);
  if (!m || m[1]!.length > 255) return undefined;
  const [, , tag, digest] = m;
  if (digest !== undefined) {
    const [algorithm = '', encoded = ''] = digest.split(':');
    if (DIGEST_LENGTHS[algorithm] !== encoded.length || !/^[a-f0-9]+$/.test(encoded)) return undefined;
  }
  if (tag === undefined && digest === undefined) return 'latest';
  return tag ?? '';
}
