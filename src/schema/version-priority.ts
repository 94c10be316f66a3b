/**
 * Kubernetes' ordering of API version strings (`version.CompareKubeAwareVersionStrings`), used for
 * APIService version priority ties and for the order of a group's versions in discovery.
 *
 * Kube-like versions (`v<major>`, `v<major>alpha<minor>`, `v<major>beta<minor>`) sort above all
 * others; among them GA > beta > alpha, then the higher major, then the higher minor. Other
 * strings sort lexicographically (ascending). Example, highest first:
 * v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, v11alpha2, foo1, foo10.
 */

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
/** Go's `strconv.Atoi` on 64-bit: larger numbers fail, which makes the string not kube-like. */
const MAX_INT = 9223372036854775807n;

interface KubeVersion {
  major: bigint;
  /** 0 alpha, 1 beta, 2 GA (Kubernetes' versionType order). */
  type: number;
  minor: bigint;
}

function parseKubeVersion(v: string): KubeVersion | undefined {
  const m = KUBE_VERSION.exec(v);
  if (!m) return undefined;
  const major = BigInt(m[1]!);
  const minor = m[3] === undefined ? 0n : BigInt(m[3]);
  if (major > MAX_INT || minor > MAX_INT) return undefined;
  const type = m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2;
  return { major, type, minor };
}

const sign = (n: bigint | number): number => (n > 0 ? 1 : n < 0 ? -1 : 0);

/**
 * Compares two version strings by priority, as Kubernetes does: positive when `a` has the higher
 * priority (sorts first), negative when `b` does, 0 when they rank equal (e.g. `v1` and `v01`).
 */
export function compareKubeVersions(a: string, b: string): number {
  if (a === b) return 0;
  const va = parseKubeVersion(a);
  const vb = parseKubeVersion(b);
  if (!va && !vb) return b < a ? -1 : b > a ? 1 : 0; // strings.Compare(b, a)
  if (!va) return -1;
  if (!vb) return 1;
  if (va.type !== vb.type) return sign(va.type - vb.type);
  if (va.major !== vb.major) return sign(va.major - vb.major);
  return sign(va.minor - vb.minor);
}

/** A comparator for `Array.prototype.sort` that puts the highest priority first (ties by string). */
export function byVersionPriority(a: string, b: string): number {
  return -compareKubeVersions(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** A copy of `versions`, highest priority first. */
export function sortVersions(versions: readonly string[]): string[] {
  return [...versions].sort(byVersionPriority);
}
