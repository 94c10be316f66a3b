/**
 * ServiceAccount (kubernetes plugin/pkg/admission/serviceaccount), on pod creation: names `default`
 * when no account is named, requires the account to exist, mounts the projected API token, copies
 * the account's imagePullSecrets, and (account annotated `<reserved domain>/enforce-mountable-secrets:
 * "true"`) limits the pod's secrets to the account's. Mirror pods are left alone.
 */
import { randomNameSuffix } from '../../machinery/random-suffix.js';
import { forbidden } from '../../machinery/errors.js';
import type { KubeObject } from '../../schema/define-kind.js';
import { goQuote } from '../../util/go-format.js';
import type { Container, Pod } from '../../kinds/types/core-v1.js';
import type { AdmissionAttributes, AdmissionCluster } from '../attributes.js';
import type { AdmissionPlugin } from '../plugin.js';
import { enforcesMountableSecrets, forbiddenSecretReference, type MountableSecretsAccount } from './mountable-secrets.js';
import { admissionName, podOf, PODS } from './pod-attributes.js';

/** Where the plugin mounts the API token. */
export const TOKEN_MOUNT_PATH = '/var/run/secrets/kubernetes.io/serviceaccount';
const TOKEN_VOLUME_PREFIX = 'kube-api-access-';

export const serviceAccount: AdmissionPlugin = {
  name: 'ServiceAccount',
  operations: ['CREATE', 'UPDATE'],
  // Not async itself: a request for anything but a pod's creation passes without a promise.
  admit(attributes, cluster) {
    const pod = podOf(attributes);
    if (!pod || attributes.operation !== 'CREATE') return;
    return admitPod(pod, attributes, cluster);
  },
};

/** What the plugin does on a pod's creation. */
async function admitPod(pod: Pod, attributes: AdmissionAttributes, cluster: AdmissionCluster): Promise<void> {
  const spec = pod.spec!;
  if (pod.metadata?.annotations?.[`${cluster.reservedDomain}/config.mirror`] !== undefined) return;
  if (!spec.serviceAccountName) spec.serviceAccountName = 'default';
  spec.serviceAccount = spec.serviceAccountName;
  const namespace = pod.metadata?.namespace ?? '';
  const name = spec.serviceAccountName;
  let account = await cluster.read({ group: '', resource: 'serviceaccounts' }, namespace, name);
  // Kubernetes retries the default account a few times: the controller creates it with the namespace.
  for (let attempt = 0; !account && name === 'default' && attempt < 10; attempt++) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    account = await cluster.read({ group: '', resource: 'serviceaccounts' }, namespace, name);
  }
  if (!account) {
    throw forbidden(PODS, admissionName(attributes), `error looking up service account ${namespace}/${name}: serviceaccount ${goQuote(name)} not found`);
  }
  const sa = account as KubeObject & MountableSecretsAccount & { automountServiceAccountToken?: boolean };
  if (spec.automountServiceAccountToken ?? sa.automountServiceAccountToken ?? true) mountServiceAccountToken(pod);
  if (!spec.imagePullSecrets?.length && sa.imagePullSecrets?.length) spec.imagePullSecrets = sa.imagePullSecrets.map((s) => ({ ...s }));
  // Checked while admitting, before the pod's own validation, as the plugin answers it.
  if (enforcesMountableSecrets(sa, cluster.reservedDomain)) {
    const why = forbiddenSecretReference(pod, sa);
    if (why) throw forbidden(PODS, admissionName(attributes), why);
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
