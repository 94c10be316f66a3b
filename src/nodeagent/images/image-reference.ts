/**
 * Container image references as the kubelet reads them (github.com/distribution/reference's
 * normalized names, via the kubelet's `parsers.ParseImageName` and `applyDefaultImageTag`):
 * `nginx` is `docker.io/library/nginx`, a reference without tag or digest gets `:latest`.
 */

/** A parsed reference: the normalized repository name, and the tag and digest when given. */
export interface ImageReference {
  /** `docker.io/library/nginx`, `registry.example:5000/team/app`. */
  readonly name: string;
  /** The registry host (and port): `docker.io`. */
  readonly domain: string;
  readonly tag?: string;
  readonly digest?: string;
}

/** Thrown for a reference that does not parse; the message is the reference library's. */
export class ImageReferenceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImageReferenceError';
  }
}

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|[-]+)[a-z0-9]+)*$/;
const DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[0-9a-fA-F:.]+\])(?::[0-9]+)?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}$/;
const MAX_NAME = 255;

/** Parses `image` into its normalized name, tag and digest; throws {@link ImageReferenceError}. */
export function parseImageReference(image: string): ImageReference {
  if (image === '') throw new ImageReferenceError('repository name must have at least one component');
  let rest = image;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at !== -1) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) throw new ImageReferenceError('invalid reference format');
  }
  let tag: string | undefined;
  const lastSlash = rest.lastIndexOf('/');
  const colon = rest.lastIndexOf(':');
  if (colon > lastSlash) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) throw new ImageReferenceError('invalid reference format');
  }
  // splitDockerDomain: the first component is a registry only if it looks like a host.
  let domain = 'docker.io';
  let path = rest;
  const slash = rest.indexOf('/');
  if (slash !== -1) {
    const first = rest.slice(0, slash);
    if (first.includes('.') || first.includes(':') || first === 'localhost' || first !== first.toLowerCase()) {
      domain = first;
      path = rest.slice(slash + 1);
    }
  }
  if (domain === 'index.docker.io') domain = 'docker.io';
  if (domain === 'docker.io' && !path.includes('/')) path = `library/${path}`;
  if (!DOMAIN.test(domain)) throw new ImageReferenceError('invalid reference format');
  if (path !== path.toLowerCase()) throw new ImageReferenceError(`invalid reference format: repository name (${path}) must be lowercase`);
  if (!path.split('/').every((c) => COMPONENT.test(c))) throw new ImageReferenceError('invalid reference format');
  const name = `${domain}/${path}`;
  if (name.length > MAX_NAME) throw new ImageReferenceError(`repository name must not be more than ${MAX_NAME} characters`);
  return { name, domain, ...(tag !== undefined ? { tag } : {}), ...(digest !== undefined ? { digest } : {}) };
}

/**
 * `image` with `:latest` added when it has neither tag nor digest (`applyDefaultImageTag`); the
 * text is otherwise kept as written, since that is what the runtime is asked to pull.
 */
export function applyDefaultImageTag(image: string): string {
  let ref: ImageReference;
  try {
    ref = parseImageReference(image);
  } catch (e) {
    throw new ImageReferenceError(`couldn't parse image name ${JSON.stringify(image)}: ${(e as Error).message}`);
  }
  return ref.tag === undefined && ref.digest === undefined ? `${image}:latest` : image;
}
