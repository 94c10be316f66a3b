/**
 * What a stock kube-apiserver does to a Pod between decoding and validation: the default-on
 * admission plugins that touch pods (ServiceAccount, DefaultTolerationSeconds, Priority) and the
 * pod strategy's `PrepareForCreate` (status, QoS class, scheduling-gated condition, matchLabelKeys
 * merged into selectors).
 */
import { randomNameSuffix } from '../../../machinery/random-suffix.js';
import { forbidden } from '../../../machinery/errors.js';
import type { KindContext, KubeObject } from '../../../schema/define-kind.js';
import { goQuote } from '../../../util/go-format.js';
import type { Container, Pod, PodAffinityTerm, Toleration } from '../../types/core-v1.js';
import type { LabelSelector } from '../../types/meta-v1.js';
import { quantityValue } from '../../shared/resource-lists.js';
import { enforcesMountableSecrets, forbiddenSecretReference, type MountableSecretsAccount } from './mountable-secrets.js';

const PODS = { group: '', resource: 'pods' };
/** Where the ServiceAccount admission plugin mounts the API token. */
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_VOLUME_PREFIX = 'kube-api-access-';

/** The name admission errors name a pod by (its generateName before a name is generated). */
function admissionName(pod: Pod): string {
  return pod.metadata?.name || pod.metadata?.generateName || 'Unknown';
}

/** Whether the pod's namespace exists and is not terminating (otherwise NamespaceLifecycle answers first). */
async function namespaceActive(pod: Pod, ctx: KindContext): Promise<boolean> {
  const namespace = pod.metadata?.namespace;
  if (!namespace) return false;
  const ns = await ctx.read({ group: '', resource: 'namespaces' }, '', namespace);
  return !!ns && !ns.metadata?.deletionTimestamp && (ns.status as { phase?: string } | undefined)?.phase !== 'Terminating';
}

/**
 * ServiceAccount admission (create): names `default` when no account is named, requires the
 * account to exist, mounts the projected API token, copies the account's imagePullSecrets, and
 * (account annotated `<reserved domain>/enforce-mountable-secrets: "true"`) limits the pod's secrets
 * to the account's.
 */
export async function admitServiceAccount(pod: Pod, ctx: KindContext): Promise<void> {
  const spec = pod.spec!;
  if (pod.metadata?.annotations?.[`${ctx.reservedDomain}/config.mirror`] !== undefined) return;
  if (!spec.serviceAccountName) spec.serviceAccountName = 'default';
  spec.serviceAccount = spec.serviceAccountName;
  const namespace = pod.metadata?.namespace ?? '';
  const name = spec.serviceAccountName;
  let account = await ctx.read({ group: '', resource: 'serviceaccounts' }, namespace, name);
  // Kubernetes retries the default account a few times: the controller creates it with the namespace.
  for (let attempt = 0; !account && name === 'default' && attempt < 10; attempt++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    account = await ctx.read({ group: '', resource: 'serviceaccounts' }, namespace, name);
  }
  if (!account) {
    throw forbidden(PODS, admissionName(pod), `error looking up service account ${namespace}/${name}: serviceaccount ${goQuote(name)} not found`);
  }
  const sa = account as KubeObject & MountableSecretsAccount & { automountServiceAccountToken?: boolean };
  if (spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true) mountServiceAccountToken(pod);
  if (!spec.imagePullSecrets?.length && sa.imagePullSecrets?.length) spec.imagePullSecrets = sa.imagePullSecrets.map((s) => ({ ...s }));
  // The plugin's validating half: an account may restrict the secrets its pods use.
  if (enforcesMountableSecrets(sa, ctx.reservedDomain)) {
    const why = forbiddenSecretReference(pod, sa);
    if (why) throw forbidden(PODS, admissionName(pod), why);
  }
}

/** The projected token volume and its mounts, as `mountServiceAccountToken` adds them. */
function mountServiceAccountToken(pod: Pod): void {
  const spec = pod.spec!;
  const existing = (spec.volumes ?? []).find((v) => v.name.startsWith(TOKEN_VOLUME_PREFIX));
  const volumeName = existing?.name ?? TOKEN_VOLUME_PREFIX + randomNameSuffix();
  let needsVolume = false;
  const mount = (c: Container) => {
    if ((c.volumeMounts ?? []).some((m) => m.mountPath === TOKEN_MOUNT_PATH)) return;
    (c.volumeMounts ??= []).push({ name: volumeName, readOnly: true, mountPath: TOKEN_MOUNT_PATH });
    needsVolume = true;
  };
  (spec.initContainers ?? []).forEach(mount);
  spec.containers.forEach(mount);
  if (existing || !needsVolume) return;
  (spec.volumes ??= []).push({
    name: volumeName,
    projected: {
      defaultMode: 420,
      sources: [
        { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
        { configMap: { name: 'kube-root-ca.crt', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
        { downwardAPI: { items: [{ path: 'namespace', fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' } }] } },
      ],
    },
  });
}

/** DefaultTolerationSeconds admission (create and update): tolerate not-ready and unreachable nodes for 300 s. */
export function admitDefaultTolerations(pod: Pod, ctx: KindContext): void {
  const spec = pod.spec!;
  const notReady = `node.${ctx.reservedDomain}/not-ready`;
  const unreachable = `node.${ctx.reservedDomain}/unreachable`;
  const tolerates = (key: string) => (spec.tolerations ?? []).some((t) => (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect));
  const add: Toleration[] = [];
  if (!tolerates(notReady)) add.push({ key: notReady, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  if (!tolerates(unreachable)) add.push({ key: unreachable, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 });
  if (add.length) spec.tolerations = [...(spec.tolerations ?? []), ...add];
}

/** The priority classes every cluster has. */
const SYSTEM_PRIORITY_CLASSES: Record<string, number> = { 'system-node-critical': 2000001000, 'system-cluster-critical': 2000000000 };

/** Priority admission (create): resolves `priorityClassName` into `priority` and `preemptionPolicy`. */
export async function admitPriority(pod: Pod, ctx: KindContext): Promise<void> {
  const spec = pod.spec!;
  let priority = 0;
  let policy: string | undefined = 'PreemptLowerPriority';
  if (spec.priorityClassName) {
    const found = (await ctx.read({ group: 'scheduling.k8s.io', resource: 'priorityclasses' }, '', spec.priorityClassName)) as
      | (KubeObject & { value?: number; preemptionPolicy?: string })
      | undefined;
    const system = SYSTEM_PRIORITY_CLASSES[spec.priorityClassName];
    if (found) {
      priority = found.value ?? 0;
      policy = found.preemptionPolicy;
    } else if (system !== undefined) {
      priority = system;
    } else {
      throw forbidden(PODS, admissionName(pod), `no PriorityClass with name ${spec.priorityClassName} was found`);
    }
  }
  if (spec.priority !== undefined && spec.priority !== priority) {
    throw forbidden(
      PODS,
      admissionName(pod),
      `the integer value of priority (${spec.priority}) must not be provided in pod spec; priority admission controller computed ${priority} from the given PriorityClass name`,
    );
  }
  spec.priority = priority;
  if (policy !== undefined) {
    if (spec.preemptionPolicy !== undefined && spec.preemptionPolicy !== policy) {
      throw forbidden(
        PODS,
        admissionName(pod),
        `the string value of PreemptionPolicy (${spec.preemptionPolicy}) must not be provided in pod spec; priority admission controller computed ${policy} from the given PriorityClass name`,
      );
    }
    spec.preemptionPolicy = policy;
  }
}

/** Priority admission (update): priority and preemptionPolicy are kept when the update omits them. */
export function keepPriority(pod: Pod, old: Readonly<Pod>): void {
  const spec = pod.spec!;
  if (spec.priority === undefined && old.spec?.priority !== undefined) spec.priority = old.spec.priority;
  if (spec.preemptionPolicy === undefined && old.spec?.preemptionPolicy !== undefined) spec.preemptionPolicy = old.spec.preemptionPolicy;
}

/** Runs the create-time admission plugins in the order Kubernetes runs them. */
export async function admitPodCreate(pod: Pod, ctx: KindContext): Promise<void> {
  // With a missing or terminating namespace, NamespaceLifecycle (run by the engine) answers first.
  if (!(await namespaceActive(pod, ctx))) return;
  await admitServiceAccount(pod, ctx);
  admitDefaultTolerations(pod, ctx);
  await admitPriority(pod, ctx);
}

// ---------------------------------------------------------------------------------------------
// PrepareForCreate
// ---------------------------------------------------------------------------------------------

/** `qos.ComputePodQOS`. */
export function computeQOSClass(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const spec = pod.spec!;
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  const positive = (list: Record<string, string | number> | undefined): [string, bigint][] =>
    Object.entries(list ?? {})
      .filter(([name]) => name === 'cpu' || name === 'memory')
      .map(([name, v]): [string, bigint] => [name, quantityValue(v)?.nanos ?? 0n])
      .filter(([, n]) => n > 0n);
  const add = (into: Map<string, bigint>, entries: [string, bigint][]) => {
    for (const [name, n] of entries) into.set(name, (into.get(name) ?? 0n) + n);
  };
  if (spec.resources) {
    add(requests, positive(spec.resources.requests));
    if (Object.keys(spec.resources.limits ?? {}).length > 0) {
      const found = positive(spec.resources.limits);
      add(limits, found);
      if (!(found.some(([n]) => n === 'cpu') && found.some(([n]) => n === 'memory'))) guaranteed = false;
    }
  } else {
    for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
      add(requests, positive(c.resources?.requests));
      const found = positive(c.resources?.limits);
      add(limits, found);
      if (!(found.some(([n]) => n === 'cpu') && found.some(([n]) => n === 'memory'))) guaranteed = false;
    }
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** The pod strategy's `PrepareForCreate`, after defaulting and admission. */
export function preparePodStatus(pod: Pod): void {
  pod.status = { phase: 'Pending', qosClass: computeQOSClass(pod) };
  if (pod.spec?.schedulingGates?.length) {
    pod.status.conditions = [
      { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' },
    ];
  }
  mergeMatchLabelKeys(pod);
}

/** Appends `key In/NotIn (pod's value)` for each listed key the pod has, as the strategy does. */
function applyLabelKeys(selector: LabelSelector, keys: readonly string[] | undefined, operator: 'In' | 'NotIn', labels: Record<string, string>): void {
  for (const key of keys ?? []) {
    const value = labels[key];
    if (value !== undefined) (selector.matchExpressions ??= []).push({ key, operator, values: [value] });
  }
}

/** `mutatePodAffinity` and `mutateTopologySpreadConstraints` (MatchLabelKeys features, on by default). */
function mergeMatchLabelKeys(pod: Pod): void {
  const labels = pod.metadata?.labels ?? {};
  const term = (t: PodAffinityTerm) => {
    if ((!t.matchLabelKeys?.length && !t.mismatchLabelKeys?.length) || !t.labelSelector) return;
    applyLabelKeys(t.labelSelector, t.matchLabelKeys, 'In', labels);
    applyLabelKeys(t.labelSelector, t.mismatchLabelKeys, 'NotIn', labels);
  };
  for (const affinity of [pod.spec?.affinity?.podAffinity, pod.spec?.affinity?.podAntiAffinity]) {
    for (const weighted of affinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) term(weighted.podAffinityTerm);
    for (const required of affinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) term(required);
  }
  for (const constraint of pod.spec?.topologySpreadConstraints ?? []) {
    if (constraint.matchLabelKeys?.length && constraint.labelSelector) applyLabelKeys(constraint.labelSelector, constraint.matchLabelKeys, 'In', labels);
  }
}
