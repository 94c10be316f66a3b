/**
 * Image references as containerd's CRI plugin sees them: every name is normalized the way the
 * docker reference library does (`nginx` is `docker.io/library/nginx:latest`), and an image's id
 * is a `sha256:` digest. memkube's images have no layers; their digests are derived from the name
 * so the same image has the same id in every run.
 */
import { createHash } from 'node:crypto';

/** An image memkube's runtime holds. */
export interface StoredImage {
  /** `sha256:<hex>`: the image (config) id, what PullImage answers as the image ref. */
  readonly id: string;
  /** Normalized `repository:tag`, when the image was pulled by tag. */
  readonly repoTags: string[];
  /** `repository@sha256:<hex>`. */
  readonly repoDigests: string[];
  readonly size: bigint;
}

/** A reference split into its normalized repository and its tag or digest. */
export interface ParsedReference {
  /** `docker.io/library/nginx`. */
  readonly repository: string;
  readonly tag?: string;
  readonly digest?: string;
}

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const DOMAIN = /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*(?::[0-9]+)?$/;
const TAG = /^[\w][\w.-]{0,127}$/;
const DIGEST = /^sha256:[a-f0-9]{64}$/;

/**
 * Parses and normalizes an image reference (docker's `ParseNormalizedNamed` then `TagNameOnly`):
 * a first component without `.` or `:` that is not `localhost` is a Docker Hub path, Docker Hub's
 * single-component names live under `library/`, and a reference with neither tag nor digest gets
 * `latest`. Returns undefined for a malformed reference.
 */
export function parseImageReference(reference: string): ParsedReference | undefined {
  let rest = reference;
  let digest: string | undefined;
  const at = rest.indexOf('@');
  if (at !== -1) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return undefined;
  }
  let tag: string | undefined;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return undefined;
  }
  const parts = rest.split('/');
  const first = parts[0]!;
  const hasDomain = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  if (hasDomain && !DOMAIN.test(first)) return undefined;
  const path = hasDomain ? parts.slice(1) : parts;
  if (path.length === 0 || !path.every((p) => COMPONENT.test(p))) return undefined;
  const domain = hasDomain ? first : 'docker.io';
  const pathText = domain === 'docker.io' && path.length === 1 ? `library/${path[0]}` : path.join('/');
  if (tag === undefined && digest === undefined) tag = 'latest';
  return { repository: `${domain}/${pathText}`, ...(tag !== undefined ? { tag } : {}), ...(digest ? { digest } : {}) };
}

/** The normalized text of a reference: `docker.io/library/nginx:latest`; the input when malformed. */
export function normalizeImageReference(reference: string): string {
  const parsed = parseImageReference(reference);
  if (!parsed) return reference;
  return `${parsed.repository}${parsed.tag !== undefined ? `:${parsed.tag}` : ''}${parsed.digest ? `@${parsed.digest}` : ''}`;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The image memkube's runtime stores for a (known) reference. */
export function imageFor(reference: string): StoredImage {
  const parsed = parseImageReference(reference);
  if (!parsed) throw new Error(`invalid image reference ${JSON.stringify(reference)}`);
  const manifestDigest = parsed.digest ?? `sha256:${sha256(`manifest:${parsed.repository}:${parsed.tag ?? ''}`)}`;
  const id = `sha256:${sha256(`config:${parsed.repository}@${manifestDigest}`)}`;
  return {
    id,
    repoTags: parsed.tag !== undefined ? [`${parsed.repository}:${parsed.tag}`] : [],
    repoDigests: [`${parsed.repository}@${manifestDigest}`],
    // A stable, plausible size from the id, so lists show a number.
    size: BigInt(parseInt(id.slice(7, 13), 16) % 50_000_000) + 1_000_000n,
  };
}
