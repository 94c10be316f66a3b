/**
 * Making sure a container's image is on the node before the container is created, as the kubelet's
 * image manager does (pkg/kubelet/images/image_manager.go `EnsureImageExists`, with
 * KubeletEnsureSecretPulledImages): apply the pull policy; for an image already present, ask the
 * pull records whether this pod may use it (pkg/kubelet/images/pullmanager `MustAttemptImagePull`)
 * and pull again — checking the pod's credentials with the registry — when not; pull with the
 * pod's pull secrets first, then the node's credential providers, anonymously when there are none;
 * back off after a failed pull.
 *
 * The node agent's pod sync calls `ensureImage` once per container before `createContainer` and
 * uses the `imageRef` it returns; an `error` becomes the container's waiting reason
 * (`ErrImagePull`, `ImagePullBackOff`, `ErrImageNeverPull`, `InvalidImageName`) with `message`.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../clock.js';
import { CriError, type AuthConfig, type ImageService, type PodSandboxConfig } from '../../cri/api.js';
import type { CredentialProviders } from './credential-providers.js';
import { createDockerKeyring, parseDockerConfig, type DockerConfigEntry, type TrackedCredential } from './docker-keyring.js';
import { applyDefaultImageTag, parseImageReference } from './image-reference.js';
import { createImagePullPolicyEnforcer, type ImagePullCredentialsVerificationPolicy } from './pull-policy.js';
import { createPullRecords, type ImagePullCredentials, type ImagePullSecret, type ImagePulledRecord, type PullRecords } from './pull-records.js';

/** A container's `imagePullPolicy`. */
export type ImagePullPolicy = 'Always' | 'IfNotPresent' | 'Never';

/** One of the pod's `imagePullSecrets`, read from the API server. */
export interface PodPullSecret {
  readonly namespace: string;
  readonly name: string;
  readonly uid: string;
  /** The secret's `.dockerconfigjson` (or legacy `.dockercfg`) text, decoded from base64. */
  readonly dockerConfigJson: string;
}

/** What {@link ImagePullManager.ensureImage} needs to know of the container and its pod. */
export interface EnsureImageRequest {
  /** The container's `image`. */
  readonly image: string;
  /** Default: `Always` for a `:latest` or untagged image, `IfNotPresent` otherwise (the API's default). */
  readonly pullPolicy?: ImagePullPolicy;
  readonly pullSecrets?: readonly PodPullSecret[];
  /** Keys the pull back-off per pod. */
  readonly podUID?: string;
  /** Handed to the runtime's `PullImage`. */
  readonly sandboxConfig?: PodSandboxConfig;
}

/** Why an image cannot be used (the container's waiting reason). */
export type EnsureImageErrorReason = 'ErrImagePull' | 'ImagePullBackOff' | 'ErrImageNeverPull' | 'InvalidImageName' | 'ImageInspectError';

/** The image to create the container from, or why there is none. */
export type EnsureImageResult = { readonly imageRef: string; readonly message: string } | { readonly error: EnsureImageErrorReason; readonly message: string };

/** Options of {@link createImagePullManager}. */
export interface ImagePullManagerOptions {
  /** The node agent's `--root-dir`; records go under `image_manager/`. */
  readonly rootDir: string;
  readonly images: ImageService;
  /** The node's credential providers (`createCredentialProviders`). */
  readonly credentialProviders?: CredentialProviders;
  /** `imagePullCredentialsVerificationPolicy`; default `NeverVerifyPreloadedImages`. */
  readonly policy?: ImagePullCredentialsVerificationPolicy;
  /** `preloadedImagesVerificationAllowlist` for `NeverVerifyAllowlistedImages`. */
  readonly allowlist?: readonly string[];
  readonly clock?: Clock;
  /** Pull back-off: first delay and cap, default 10 s and 300 s as the kubelet's. */
  readonly backoff?: { readonly initialMs: number; readonly maxMs: number };
  /** Hears about problems the kubelet only logs (unreadable records, failing plugins). */
  readonly onWarning?: (message: string) => void;
}

/** The node agent's image pulls. */
export interface ImagePullManager {
  /** Makes sure a container's image is present, pulling it as the pull policy says: the image's reference, or the error's reason and message. */
  ensureImage(request: EnsureImageRequest): Promise<EnsureImageResult>;
  /**
   * Image garbage collection's clean-up (`PruneUnknownRecords`): deletes the pulled records of
   * imageRefs not in `imageRefsInUse` last updated before `until` (epoch milliseconds).
   */
  pruneUnknownRecords(imageRefsInUse: readonly string[], until: number): void;
  /** The on-disk records (for garbage collection and inspection). */
  readonly records: PullRecords;
}

/** Beyond this many recorded secrets, matching stops adding new ones (`writeRecordWhileMatchingLimit`). */
const WRITE_RECORD_WHILE_MATCHING_LIMIT = 100;

type CredentialSource = { readonly kind: 'secret'; readonly secret: PodPullSecret } | { readonly kind: 'node'; readonly provider: string };

/** The hash recorded for a pull secret's credentials: SHA-256 of the credential fields as JSON. */
export function credentialHash(entry: DockerConfigEntry): string {
  const fields = {
    username: entry.username ?? '',
    password: entry.password ?? '',
    auth: entry.auth ?? '',
    identityToken: entry.identityToken ?? '',
    registryToken: entry.registryToken ?? '',
  };
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

/** The image pull manager of a node. Initialization (turning leftover intents into records) runs in the background. */
export function createImagePullManager(options: ImagePullManagerOptions): ImagePullManager {
  const records = createPullRecords(options.rootDir);
  const enforcer = createImagePullPolicyEnforcer(options.policy ?? 'NeverVerifyPreloadedImages', options.allowlist);
  const now = () => options.clock?.now() ?? Date.now();
  const warn = (m: string) => options.onWarning?.(m);
  const intentCounts = new Map<string, number>();
  const backoff = new Map<string, { delay: number; last: number; message: string }>();
  const initialBackoff = options.backoff?.initialMs ?? 10_000;
  const maxBackoff = options.backoff?.maxMs ?? 300_000;
  const ready = initialize();

  /** Leftover intents of a previous run whose image the runtime now has become records without credentials. */
  async function initialize(): Promise<void> {
    const { intents, errors } = records.listIntents();
    errors.forEach(warn);
    if (intents.length === 0) return;
    let images;
    try {
      images = (await options.images.listImages({})).images;
    } catch (e) {
      warn(`failed to list images: ${(e as Error).message}`);
      return;
    }
    const pending = new Set(intents.map((i) => i.image));
    for (const image of images) {
      for (const name of [...image.repoDigests, ...image.repoTags]) {
        if (!pending.has(name)) continue;
        try {
          writePulledRecordIfChanged(name, image.id, undefined);
          records.deleteIntent(name);
        } catch (e) {
          warn(`failed to write an image pull record for ${image.id}: ${(e as Error).message}`);
        }
      }
    }
  }

  function writePulledRecordIfChanged(image: string, imageRef: string, credentials: ImagePullCredentials | undefined): void {
    const name = parseImageReference(image).name;
    let record: ImagePulledRecord | undefined;
    try {
      record = records.getPulled(imageRef);
    } catch (e) {
      warn(`failed to retrieve an ImagePulledRecord for ${image}: ${(e as Error).message}`);
    }
    const stamp = new Date(now()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    if (!record) {
      records.writePulled({ lastUpdatedTime: stamp, imageRef, credentialMapping: credentials ? { [name]: credentials } : {} });
      return;
    }
    const merged = mergeCredentials(record.credentialMapping[name], credentials);
    if (merged) records.writePulled({ ...record, lastUpdatedTime: stamp, credentialMapping: { ...record.credentialMapping, [name]: merged } });
  }

  /** Whether the pod must pull (and so prove its credentials) although `imageRef` is present. */
  function mustAttemptImagePull(image: string, imageRef: string, podSecrets: readonly ImagePullSecret[]): boolean {
    let record: ImagePulledRecord | undefined;
    let pulledByNodeAgent: boolean;
    try {
      record = records.getPulled(imageRef);
      pulledByNodeAgent = record !== undefined || (intentCounts.get(image) ?? 0) > 0 || records.intentExists(image);
    } catch (e) {
      warn(`Unable to access cache records about image pulls: ${(e as Error).message}`);
      return true;
    }
    if (!enforcer(image, pulledByNodeAgent)) return false;
    if (!record) return true;
    const creds = record.credentialMapping[parseImageReference(image).name];
    if (!creds) return true;
    if (creds.nodePodsAccessible) return false;
    const cachedSecrets = creds.kubernetesSecrets ?? [];
    if (cachedSecrets.length === 0) return true;
    const remember = (podSecret: ImagePullSecret) => {
      try {
        writePulledRecordIfChanged(image, imageRef, { kubernetesSecrets: [podSecret] });
      } catch (e) {
        warn(`failed to write an image pulled record for ${image}: ${(e as Error).message}`);
      }
    };
    const belowLimit = cachedSecrets.length < WRITE_RECORD_WHILE_MATCHING_LIMIT;
    for (const podSecret of podSecrets) {
      for (const cached of cachedSecrets) {
        const hashesMatch = cached.credentialHash.length > 0 && podSecret.credentialHash === cached.credentialHash;
        const coordinatesMatch = podSecret.uid === cached.uid && podSecret.namespace === cached.namespace && podSecret.name === cached.name;
        if (hashesMatch) {
          // Another secret holding the same credentials: accepted, and remembered while the list is short.
          if (!coordinatesMatch && belowLimit) remember(podSecret);
          return false;
        }
        if (coordinatesMatch && belowLimit) {
          // The same secret with rotated credentials: accepted only while it can be recorded, as the kubelet.
          remember(podSecret);
          return false;
        }
      }
    }
    return true;
  }

  async function pull(image: string, repo: string, keyringCreds: TrackedCredential<CredentialSource>[], sandboxConfig: PodSandboxConfig | undefined) {
    const spec = { image };
    if (keyringCreds.length === 0) {
      const { imageRef } = await options.images.pullImage({ image: spec, ...(sandboxConfig ? { sandboxConfig } : {}) });
      return { imageRef, credentials: { nodePodsAccessible: true } satisfies ImagePullCredentials };
    }
    const errors: string[] = [];
    for (const cred of keyringCreds) {
      const auth: AuthConfig = { ...cred.entry, serverAddress: repo.split('/')[0]! };
      try {
        const { imageRef } = await options.images.pullImage({ image: spec, auth, ...(sandboxConfig ? { sandboxConfig } : {}) });
        const credentials: ImagePullCredentials =
          cred.source.kind === 'secret'
            ? {
                kubernetesSecrets: [
                  {
                    uid: cred.source.secret.uid,
                    namespace: cred.source.secret.namespace,
                    name: cred.source.secret.name,
                    credentialHash: credentialHash(cred.entry),
                  },
                ],
              }
            : { nodePodsAccessible: true };
        return { imageRef, credentials };
      } catch (e) {
        errors.push(errorText(e));
      }
    }
    throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
  }

  async function ensureImage(request: EnsureImageRequest): Promise<EnsureImageResult> {
    await ready;
    let image: string;
    let repo: string;
    try {
      image = applyDefaultImageTag(request.image);
      repo = parseImageReference(image).name;
    } catch (e) {
      return { error: 'InvalidImageName', message: `Failed to apply default image tag ${JSON.stringify(request.image)}: ${(e as Error).message}` };
    }
    const ref = parseImageReference(image);
    const policy = request.pullPolicy ?? (ref.digest === undefined && (ref.tag === undefined || ref.tag === 'latest') ? 'Always' : 'IfNotPresent');

    let imageRef = '';
    if (policy !== 'Always') {
      try {
        imageRef = (await options.images.imageStatus({ image: { image } })).image?.id ?? '';
      } catch (e) {
        return { error: 'ImageInspectError', message: `Failed to inspect image ${JSON.stringify(image)}: ${errorText(e)}` };
      }
      if (imageRef === '' && policy === 'Never') return neverPull(image);
    }

    const secretConfigs = [];
    for (const secret of request.pullSecrets ?? []) {
      try {
        secretConfigs.push({ config: parseDockerConfig(secret.dockerConfigJson), source: { kind: 'secret', secret } as CredentialSource });
      } catch (e) {
        // The kubelet skips a secret it cannot read and goes on with the others.
        warn(`Unable to retrieve pull secret ${secret.namespace}/${secret.name}: ${(e as Error).message}`);
      }
    }
    const podCreds = createDockerKeyring(secretConfigs).lookup(repo);

    if (imageRef !== '') {
      const podSecrets = podCreds.flatMap((c) =>
        c.source.kind === 'secret'
          ? [{ uid: c.source.secret.uid, namespace: c.source.secret.namespace, name: c.source.secret.name, credentialHash: credentialHash(c.entry) }]
          : [],
      );
      if (!mustAttemptImagePull(image, imageRef, podSecrets))
        return { imageRef, message: `Container image ${JSON.stringify(image)} already present on machine` };
      // Present, but this pod has not shown it may use it.
      if (policy === 'Never') return neverPull(image);
    }

    const backoffKey = `${request.podUID ?? ''}_${image}`;
    const previous = backoff.get(backoffKey);
    if (previous && now() - previous.last < previous.delay) {
      return { error: 'ImagePullBackOff', message: `Back-off pulling image ${JSON.stringify(image)}: ${previous.message}` };
    }

    const provided = options.credentialProviders ? await options.credentialProviders.provide(repo) : [];
    const nodeCreds = createDockerKeyring(
      provided.map((p) => ({ config: p.config, source: { kind: 'node', provider: p.provider } as CredentialSource })),
    ).lookup(repo);

    intentCounts.set(image, (intentCounts.get(image) ?? 0) + 1);
    try {
      records.writeIntent(image);
    } catch (e) {
      intentCounts.set(image, intentCounts.get(image)! - 1);
      return { error: 'ErrImagePull', message: `Failed to pull image ${JSON.stringify(image)}: failed to record image pull intent: ${(e as Error).message}` };
    }
    try {
      const result = await pull(image, repo, [...podCreds, ...nodeCreds], request.sandboxConfig);
      backoff.delete(backoffKey);
      try {
        writePulledRecordIfChanged(image, result.imageRef, result.credentials);
        decrementIntent(image);
      } catch (e) {
        // The intent stays: the next start turns it into a record.
        warn(`failed to write image pulled record for ${result.imageRef}: ${(e as Error).message}`);
      }
      return { imageRef: result.imageRef, message: `Successfully pulled image ${JSON.stringify(image)}` };
    } catch (e) {
      decrementIntent(image);
      const message = `Failed to pull image ${JSON.stringify(image)}: ${(e as Error).message}`;
      const delay = previous ? Math.min(previous.delay * 2, maxBackoff) : initialBackoff;
      backoff.set(backoffKey, { delay, last: now(), message });
      return { error: 'ErrImagePull', message };
    }
  }

  function decrementIntent(image: string): void {
    const count = intentCounts.get(image) ?? 0;
    if (count <= 1) {
      records.deleteIntent(image);
      intentCounts.delete(image);
    } else intentCounts.set(image, count - 1);
  }

  function pruneUnknownRecords(imageRefsInUse: readonly string[], until: number): void {
    const { records: all, errors } = records.listPulled();
    errors.forEach(warn);
    const inUse = new Set(imageRefsInUse);
    for (const record of all) {
      const updated = Date.parse(record.lastUpdatedTime);
      // A record updated after the collection started, or with an unreadable time, stays.
      if (!(updated < until) || inUse.has(record.imageRef)) continue;
      records.deletePulled(record.imageRef);
    }
  }

  return { ensureImage, pruneUnknownRecords, records };
}

function neverPull(image: string): EnsureImageResult {
  return { error: 'ErrImageNeverPull', message: `Container image ${JSON.stringify(image)} is not present with pull policy of Never` };
}

function errorText(e: unknown): string {
  return e instanceof CriError ? e.message : e instanceof Error ? e.message : String(e);
}

/** `pulledRecordMergeNewCreds` for one image: the merged credentials, or `undefined` when nothing changed. */
export function mergeCredentials(existing: ImagePullCredentials | undefined, added: ImagePullCredentials | undefined): ImagePullCredentials | undefined {
  if (!added) return undefined;
  const addedSecrets = added.kubernetesSecrets ?? [];
  const addedAccounts = added.kubernetesServiceAccounts ?? [];
  if (!added.nodePodsAccessible && addedSecrets.length === 0 && addedAccounts.length === 0) return undefined;
  if (!existing) return added;
  if (existing.nodePodsAccessible) return undefined;
  if (added.nodePodsAccessible) return { nodePodsAccessible: true };
  if (addedSecrets.length > 0) {
    const secrets = [...(existing.kubernetesSecrets ?? [])];
    let changed = false;
    for (const s of addedSecrets) {
      const i = secrets.findIndex((c) => c.uid === s.uid && c.namespace === s.namespace && c.name === s.name);
      if (i === -1) {
        secrets.push(s);
        changed = true;
      } else if (secrets[i]!.credentialHash !== s.credentialHash) {
        secrets[i] = s;
        changed = true;
      }
    }
    return changed ? { ...existing, kubernetesSecrets: secrets } : undefined;
  }
  const accounts = [...(existing.kubernetesServiceAccounts ?? [])];
  let changed = false;
  for (const a of addedAccounts) {
    if (!accounts.some((c) => c.uid === a.uid && c.namespace === a.namespace && c.name === a.name)) {
      accounts.push(a);
      changed = true;
    }
  }
  return changed ? { ...existing, kubernetesServiceAccounts: accounts } : undefined;
}
