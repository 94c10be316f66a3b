/** Semantic versions as `github.com/blang/semver/v4` parses and orders them (no leading `v`). */

export interface SemVer {
  major: bigint;
  minor: bigint;
  patch: bigint;
  pre: string[];
}

const ALNUM = /^[0-9A-Za-z-]+$/;
const NUM = /^[0-9]+$/;
const MAX_UINT64 = 18446744073709551615n;

/** The parsed version, or undefined when blang/semver's `Parse` fails. */
export function parseSemVer(s: string): SemVer | undefined {
  if (s.length === 0) return undefined;
  const plus = s.indexOf('+');
  const main = plus < 0 ? s : s.slice(0, plus);
  if (
    plus >= 0 &&
    s
      .slice(plus + 1)
      .split('.')
      .some((b) => !ALNUM.test(b))
  )
    return undefined;
  const dash = main.indexOf('-');
  const core = dash < 0 ? main : main.slice(0, dash);
  const parts = core.split('.');
  if (parts.length !== 3) return undefined;
  const nums: bigint[] = [];
  for (const p of parts) {
    if (!NUM.test(p) || (p.length > 1 && p.startsWith('0'))) return undefined;
    const n = BigInt(p);
    if (n > MAX_UINT64) return undefined;
    nums.push(n);
  }
  const pre = dash < 0 ? [] : main.slice(dash + 1).split('.');
  for (const p of pre) {
    if (!ALNUM.test(p)) return undefined;
    if (NUM.test(p) && p.length > 1 && p.startsWith('0')) return undefined;
  }
  return { major: nums[0]!, minor: nums[1]!, patch: nums[2]!, pre };
}

/** The zero version `0.0.0`. */
export function isZeroSemVer(v: SemVer | undefined): boolean {
  return !v || (v.major === 0n && v.minor === 0n && v.patch === 0n && v.pre.length === 0);
}

/** Precedence: negative when a < b. */
export function compareSemVer(a: SemVer, b: SemVer): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (!a.pre.length || !b.pre.length) return a.pre.length === b.pre.length ? 0 : a.pre.length ? -1 : 1;
  for (let i = 0; i < Math.max(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i];
    const y = b.pre[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const xn = NUM.test(x);
    const yn = NUM.test(y);
    if (xn && yn) return BigInt(x) < BigInt(y) ? -1 : 1;
    if (xn) return -1;
    if (yn) return 1;
    return x < y ? -1 : 1;
  }
  return 0;
}
