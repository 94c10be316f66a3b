import { afterAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../../src/cluster.js';
import { createFetchHandler } from '../../../src/http/handler.js';
import type { EnsureImageRequest, ImagePullManager } from '../../../src/nodeagent/images/pull-manager.js';
import { kubeApiClientOverFetch } from '../../../src/nodeagent/kube-api-fetch.js';
import { ImageNotReadyError } from '../../../src/nodeagent/pods/image-ensurer.js';
import { managedImages } from '../../../src/nodeagent/pods/managed-images.js';

const cluster = await createCluster();
afterAll(() => cluster.close());
const kube = kubeApiClientOverFetch('http://memkube.invalid', createFetchHandler(cluster, { defaultUser: { username: 'admin', groups: ['system:masters'] } }));

/** A pull manager that answers `answer` and keeps what it was asked. */
function recordingManager(answer: Awaited<ReturnType<ImagePullManager['ensureImage']>>): ImagePullManager & { asked: EnsureImageRequest[] } {
  const asked: EnsureImageRequest[] = [];
  return {
    asked,
    ensureImage: (request) => {
      asked.push(request);
      return Promise.resolve(answer);
    },
    pruneUnknownRecords: () => undefined,
    records: undefined as never,
  };
}

const dockerConfig = JSON.stringify({ auths: { 'registry.example': { auth: Buffer.from('u:p').toString('base64') } } });

describe('the pod sync pulling through the node image manager', () => {
  it("hands the manager the pod's pull secrets that exist and hold a docker config, and answers the image ref", async () => {
    await kube.request('POST', '/api/v1/namespaces/default/secrets', {
      body: {
        metadata: { name: 'regcred' },
        type: 'kubernetes.io/dockerconfigjson',
        data: { '.dockerconfigjson': Buffer.from(dockerConfig).toString('base64') },
      },
    });
    await kube.request('POST', '/api/v1/namespaces/default/secrets', { body: { metadata: { name: 'opaque' }, stringData: { a: 'b' } } });
    const manager = recordingManager({ imageRef: 'sha256:abc', message: '' });
    const pod = {
      metadata: { name: 'p', namespace: 'default', uid: 'uid-1' },
      spec: { imagePullSecrets: [{ name: 'regcred' }, { name: 'missing' }, { name: 'opaque' }], containers: [{ name: 'c', image: 'registry.example/app:1' }] },
    };
    const ref = await managedImages(manager, kube).ensureImage(pod, pod.spec.containers[0]!, {
      metadata: { name: 'p', uid: 'uid-1', namespace: 'default', attempt: 0 },
    });
    expect(ref).toBe('sha256:abc');
    expect(manager.asked).toHaveLength(1);
    expect(manager.asked[0]).toMatchObject({ image: 'registry.example/app:1', pullPolicy: 'IfNotPresent', podUID: 'uid-1' });
    expect(manager.asked[0]!.pullSecrets).toEqual([{ namespace: 'default', name: 'regcred', uid: expect.any(String), dockerConfigJson: dockerConfig }]);
  });

  it("turns the manager's refusal into the container's waiting reason and message", async () => {
    const manager = recordingManager({ error: 'ErrImageNeverPull', message: 'Container image "x" is not present with pull policy of Never' });
    const pod = { metadata: { name: 'p', namespace: 'default', uid: 'uid-2' }, spec: { containers: [{ name: 'c', image: 'x', imagePullPolicy: 'Never' }] } };
    const failure = await managedImages(manager, kube)
      .ensureImage(pod, pod.spec.containers[0]!, { metadata: { name: 'p', uid: 'uid-2', namespace: 'default', attempt: 0 } })
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ImageNotReadyError);
    expect(failure).toMatchObject({ reason: 'ErrImageNeverPull', message: 'Container image "x" is not present with pull policy of Never' });
  });
});
