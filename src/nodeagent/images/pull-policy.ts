/**
 * `imagePullCredentialsVerificationPolicy` (pkg/kubelet/images/pullmanager/image_pull_policies.go):
 * whether an image already on the node may be used by a pod without showing it has credentials.
 */
import { parseImageReference } from './image-reference.js';

/**
 * `NeverVerify`: any pod may use any present image. `NeverVerifyPreloadedImages` (the default):
 * images the node agent did not pull (preloaded) are free, the ones it pulled need credentials.
 * `NeverVerifyAllowlistedImages`: only allowlisted images are free. `AlwaysVerify`: every use is checked.
 */
export type ImagePullCredentialsVerificationPolicy = 'NeverVerify' | 'NeverVerifyPreloadedImages' | 'NeverVerifyAllowlistedImages' | 'AlwaysVerify';

/** Decides whether using `image` needs a credential check. */
export type ImagePullPolicyEnforcer = (image: string, pulledByNodeAgent: boolean) => boolean;

/** Thrown for an unknown policy or a bad allowlist entry; the message is the kubelet's. */
export class ImagePullPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImagePullPolicyError';
  }
}

/** The enforcer of `policy`; `allowlist` holds image names or prefixes ending in `/*`. */
export function createImagePullPolicyEnforcer(policy: ImagePullCredentialsVerificationPolicy, allowlist: readonly string[] = []): ImagePullPolicyEnforcer {
  switch (policy) {
    case 'NeverVerify':
      return () => false;
    case 'NeverVerifyPreloadedImages':
      return (_image, pulledByNodeAgent) => pulledByNodeAgent;
    case 'AlwaysVerify':
      return () => true;
    case 'NeverVerifyAllowlistedImages': {
      const exact = new Set<string>();
      const prefixes: string[] = [];
      for (const pattern of allowlist) {
        const [normalized, wildcard] = allowlistPattern(pattern);
        if (wildcard) prefixes.push(normalized);
        else exact.add(normalized);
      }
      // The allowlist names images without tag or digest, so the pod's reference is compared so too.
      return (image) => {
        const name = nameOf(image);
        return !(exact.has(name) || exact.has(image) || prefixes.some((p) => image.startsWith(p) || name.startsWith(p)));
      };
    }
    default:
      throw new ImagePullPolicyError(`unknown image pull credential verification policy: ${String(policy)}`);
  }
}

/** An allowlist entry, normalized, and whether it is a `/*` prefix (`getAllowlistImagePattern`). */
export function allowlistPattern(pattern: string): [string, boolean] {
  if (pattern !== pattern.trim()) throw new ImagePullPolicyError(`leading/trailing spaces are not allowed: ${pattern}`);
  const wildcard = pattern.endsWith('/*');
  const trimmed = wildcard ? pattern.slice(0, -1) : pattern;
  if (trimmed.length === 0) throw new ImagePullPolicyError(`the supplied pattern is too short: ${pattern}`);
  if (trimmed.includes('*')) throw new ImagePullPolicyError(`not a valid wildcard pattern, only patterns ending with '/*' are allowed: ${pattern}`);
  if (wildcard) {
    if (trimmed.length === 1) throw new ImagePullPolicyError('at least registry hostname is required');
    return [trimmed, true];
  }
  let name: string;
  try {
    name = parseImageReference(trimmed).name;
  } catch (e) {
    throw new ImagePullPolicyError(`failed to parse as an image name: ${(e as Error).message}`);
  }
  if (trimmed !== name) throw new ImagePullPolicyError(`neither tag nor digest is accepted in an image reference: ${pattern}`);
  return [trimmed, false];
}

function nameOf(image: string): string {
  try {
    return parseImageReference(image).name;
  } catch {
    return image;
  }
}
