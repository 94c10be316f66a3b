/**
 * Making sure a container's image is on the node before it is created, as kubelet's image
 * manager `EnsureImageExists` does: by pull policy, with pull back-off and kubelet's reasons
 * and messages. Behind a small interface, so an image manager with credential providers and
 * pull secrets can take the place of {@link DirectImagePuller}.
 */
import type { Container, Pod } from '../../kinds/types/core-v1.js';
import type { ImageService, PodSandboxConfig } from '../../cri/api.js';
import type { Clock } from '../../clock.js';
import { Backoff } from './backoff.js';
import { pullPolicyOf } from './pod-util.js';

/** Why an image is not there: kubelet's waiting reasons (`ErrImagePull`, `ImagePullBackOff`, `ErrImageNeverPull`, `InvalidImageName`, `ImageInspectError`). */
export class ImageNotReadyError extends Error {
  constructor(
    readonly reason: 'ErrImagePull' | 'ImagePullBackOff' | 'ErrImageNeverPull' | 'InvalidImageName' | 'ImageInspectError',
    message: string,
  ) {
    super(message);
    this.name = 'ImageNotReadyError';
  }
}

/**
 * Puts a container's image on the node and answers the runtime's reference to it (the image id).
 * @category Node agent
 */
export interface ImageEnsurer {
  /** Pulls the container's image if the pull policy asks for it, and answers the image id. */
  ensureImage(pod: Pod, container: Container, sandboxConfig: PodSandboxConfig): Promise<string>;
}

/** Pulls straight through the CRI ImageService, without credentials. */
export class DirectImagePuller implements ImageEnsurer {
  private readonly backoff: Backoff;

  constructor(
    private readonly images: ImageService,
    private readonly clock: Clock,
  ) {
    this.backoff = new Backoff(clock);
  }

  async ensureImage(pod: Pod, container: Container, sandboxConfig: PodSandboxConfig): Promise<string> {
    const image = container.image ?? '';
    if (image === '')
      throw new ImageNotReadyError('InvalidImageName', `Failed to apply default image tag "": couldn't parse image name "": invalid reference format`);
    const policy = pullPolicyOf(container);
    if (policy !== 'Always') {
      const present = await this.images.imageStatus({ image: { image } });
      if (present.image) return present.image.id;
      if (policy === 'Never')
        throw new ImageNotReadyError('ErrImageNeverPull', `Container image ${JSON.stringify(image)} is not present with pull policy of Never`);
    }
    const key = `${pod.metadata?.uid ?? ''}_${image}`;
    if (this.backoff.inBackoffSinceUpdate(key)) throw new ImageNotReadyError('ImagePullBackOff', `Back-off pulling image ${JSON.stringify(image)}`);
    try {
      const pulled = await this.images.pullImage({ image: { image }, sandboxConfig });
      return pulled.imageRef;
    } catch (e) {
      this.backoff.next(key, this.clock.now());
      throw new ImageNotReadyError('ErrImagePull', `Failed to pull image ${JSON.stringify(image)}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
}
