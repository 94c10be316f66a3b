/**
 * The ServiceAccount admission plugin's mountable-secrets check (Kubernetes'
 * `limitSecretReferences`): when the pod's account carries `<reserved domain>/enforce-mountable-secrets`
 * set to true, a new pod may use only the secrets the account lists in `secrets`, and only the
 * image pull secrets it lists in `imagePullSecrets`.
 */
import type { Container, Pod } from '../../kinds/types/core-v1.js';

/** The parts of a ServiceAccount the check reads. */
export interface MountableSecretsAccount {
  metadata?: { name?: string; annotations?: Record<string, string> };
  secrets?: { name?: string }[];
  imagePullSecrets?: { name?: string }[];
}

/** Go's `strconv.ParseBool` being true: the only spellings of true it accepts. */
const GO_TRUE = new Set(['1', 't', 'T', 'TRUE', 'true', 'True']);

/** Whether the account restricts its pods' secrets (an unparsable value counts as false, as in Go). */
export function enforcesMountableSecrets(account: MountableSecretsAccount, reservedDomain: string): boolean {
  const value = account.metadata?.annotations?.[`${reservedDomain}/enforce-mountable-secrets`];
  return value !== undefined && GO_TRUE.has(value);
}

/**
 * The first secret reference of the pod the account does not list, as the plugin's error text
 * (the reason of a 403), or undefined when every reference is allowed. Checked in Kubernetes'
 * order: `secret` volumes, then init containers, then containers (env `secretKeyRef`, then
 * `envFrom` `secretRef`), then imagePullSecrets. Projected volumes are not checked, as in Kubernetes.
 */
export function forbiddenSecretReference(pod: Pod, account: MountableSecretsAccount): string | undefined {
  const sa = account.metadata?.name ?? '';
  const mountable = new Set((account.secrets ?? []).map((s) => s.name ?? ''));
  const because = `is not allowed because service account ${sa} does not reference that secret`;
  const spec = pod.spec;
  if (!spec) return undefined;
  for (const volume of spec.volumes ?? []) {
    if (!volume.secret) continue;
    const name = volume.secret.secretName ?? '';
    if (!mountable.has(name)) return `volume with secret.secretName="${name}" ${because}`;
  }
  const containers = (list: Container[] | undefined, what: string): string | undefined => {
    for (const c of list ?? []) {
      for (const env of c.env ?? []) {
        const ref = env.valueFrom?.secretKeyRef;
        if (ref && !mountable.has(ref.name ?? '')) {
          return `${what} ${c.name} with envVar ${env.name} referencing secret.secretName="${ref.name ?? ''}" ${because}`;
        }
      }
      for (const from of c.envFrom ?? []) {
        const ref = from.secretRef;
        if (ref && !mountable.has(ref.name ?? '')) return `${what} ${c.name} with envFrom referencing secret.secretName="${ref.name ?? ''}" ${because}`;
      }
    }
    return undefined;
  };
  const inContainers = containers(spec.initContainers, 'init container') ?? containers(spec.containers, 'container');
  if (inContainers) return inContainers;
  const pullable = new Set((account.imagePullSecrets ?? []).map((s) => s.name ?? ''));
  const pull = (spec.imagePullSecrets ?? []).findIndex((ref) => !pullable.has(ref.name ?? ''));
  if (pull >= 0) {
    const name = spec.imagePullSecrets![pull]!.name ?? '';
    return `imagePullSecrets[${pull}].name="${name}" is not allowed because service account ${sa} does not reference that imagePullSecret`;
  }
  return undefined;
}
