/**
 * The node's image manager behind the pod sync's {@link ImageEnsurer}: the pull manager of
 * `../images` (credential providers, the pod's `imagePullSecrets`, pull records and the
 * credential verification policy) with the pod's pull secrets read from the API server, as
 * kubelet's `getPullSecretsForPod` reads them before `EnsureImageExists`.
 */
import type { Container, Pod } from '../../kinds/types/core-v1.js';
import type { PodSandboxConfig } from '../../cri/api.js';
import type { ImagePullManager, PodPullSecret } from '../images/pull-manager.js';
import { KubeApiError, type KubeApiClient } from '../kube-api.js';
import { ImageNotReadyError, type ImageEnsurer } from './image-ensurer.js';
import { pullPolicyOf } from './pod-util.js';

interface SecretJson {
  metadata?: { uid?: string };
  type?: string;
  data?: Record<string, string>;
}

const DOCKER_CONFIG_KEYS: Readonly<Record<string, string>> = {
  'kubernetes.io/dockerconfigjson': '.dockerconfigjson',
  'kubernetes.io/dockercfg': '.dockercfg',
};

/** The pod's pull secrets that exist and hold a docker config; a missing one is skipped as kubelet skips it (with a warning). */
async function pullSecretsOf(kube: KubeApiClient, pod: Pod): Promise<PodPullSecret[]> {
  const namespace = pod.metadata?.namespace ?? '';
  const secrets: PodPullSecret[] = [];
  for (const ref of pod.spec?.imagePullSecrets ?? []) {
    if (!ref.name) continue;
    let secret: SecretJson;
    try {
      secret = await kube.request<SecretJson>('GET', `/api/v1/namespaces/${encodeURIComponent(namespace)}/secrets/${encodeURIComponent(ref.name)}`);
    } catch (e) {
      if (e instanceof KubeApiError && e.code === 404) continue;
      throw e;
    }
    const key = DOCKER_CONFIG_KEYS[secret.type ?? ''];
    const encoded = key ? secret.data?.[key] : undefined;
    if (encoded === undefined) continue;
    secrets.push({ namespace, name: ref.name, uid: secret.metadata?.uid ?? '', dockerConfigJson: Buffer.from(encoded, 'base64').toString('utf8') });
  }
  return secrets;
}

/** An {@link ImageEnsurer} over the node's pull manager. */
export function managedImages(manager: ImagePullManager, kube: KubeApiClient): ImageEnsurer {
  return {
    async ensureImage(pod: Pod, container: Container, sandboxConfig: PodSandboxConfig): Promise<string> {
      const result = await manager.ensureImage({
        image: container.image ?? '',
        pullPolicy: pullPolicyOf(container),
        pullSecrets: await pullSecretsOf(kube, pod),
        podUID: pod.metadata?.uid ?? '',
        sandboxConfig,
      });
      if ('error' in result) throw new ImageNotReadyError(result.error, result.message);
      return result.imageRef;
    },
  };
}
