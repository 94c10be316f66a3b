/**
 * Kubernetes' semver library at version 1 (apiserver/pkg/cel/library/semverlib.go): semver(),
 * isSemver() (each optionally normalizing `v1.2` to `1.2.0`), and the kubernetes.Semver methods.
 * Parsing follows blang/semver's strict rules.
 */
import { CelError, OpaqueValue, type Result } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';

interface Version {
  readonly major: bigint;
  readonly minor: bigint;
  readonly patch: bigint;
  readonly pre: readonly string[];
}

/** A kubernetes.Semver value. */
export class SemverValue extends OpaqueValue {
  readonly typeName = 'kubernetes.Semver';
  constructor(readonly v: Version) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof SemverValue && compareVersions(this.v, other.v) === 0;
  }
}

const NUM = /^(0|[1-9]\d*)$/;

function parseVersion(s: string): Version | string {
  const plus = s.indexOf('+');
  const main = plus < 0 ? s : s.slice(0, plus);
  if (plus >= 0 && !/^[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*$/.test(s.slice(plus + 1))) return `Invalid character(s) found in build meta "${s.slice(plus + 1)}"`;
  const dash = main.indexOf('-');
  const core = dash < 0 ? main : main.slice(0, dash);
  const parts = core.split('.');
  if (parts.length !== 3) return 'No Major.Minor.Patch elements found';
  const names = ['major', 'minor', 'patch'];
  for (let i = 0; i < 3; i++) {
    const p = parts[i]!;
    if (!/^\d+$/.test(p)) return `Invalid character(s) found in ${names[i]} number "${p}"`;
    if (!NUM.test(p)) return `${names[i]![0]!.toUpperCase()}${names[i]!.slice(1)} number must not contain leading zeroes "${p}"`;
  }
  const pre = dash < 0 ? [] : main.slice(dash + 1).split('.');
  for (const id of pre) {
    if (id === '') return 'Prerelease is empty';
    if (!/^[0-9A-Za-z-]+$/.test(id)) return `Invalid character(s) found in prerelease "${id}"`;
    if (/^\d+$/.test(id) && !NUM.test(id)) return `Prerelease number must not contain leading zeroes "${id}"`;
  }
  return { major: BigInt(parts[0]!), minor: BigInt(parts[1]!), patch: BigInt(parts[2]!), pre };
}

/** Kubernetes' normalization: drop a leading `v`, add missing minor and patch, drop leading zeroes. */
function normalize(s: string): string {
  let v = s.startsWith('v') ? s.slice(1) : s;
  const ext = /[-+]/.exec(v);
  const core = ext ? v.slice(0, ext.index) : v;
  const rest = ext ? v.slice(ext.index) : '';
  const parts = core.split('.');
  while (parts.length < 3) parts.push('0');
  v = parts.map((p) => (/^\d+$/.test(p) ? p.replace(/^0+(?=\d)/, '') : p)).join('.') + rest;
  return v;
}

function compareVersions(a: Version, b: Version): number {
  for (const k of ['major', 'minor', 'patch'] as const) if (a[k] !== b[k]) return a[k] < b[k] ? -1 : 1;
  if (a.pre.length === 0 || b.pre.length === 0) return a.pre.length === b.pre.length ? 0 : a.pre.length === 0 ? 1 : -1;
  for (let i = 0; i < Math.min(a.pre.length, b.pre.length); i++) {
    const x = a.pre[i]!;
    const y = b.pre[i]!;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (x === y) continue;
    if (xn && yn) return BigInt(x) < BigInt(y) ? -1 : 1;
    if (xn !== yn) return xn ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return a.pre.length === b.pre.length ? 0 : a.pre.length < b.pre.length ? -1 : 1;
}

function semver(s: string, norm: boolean): Result {
  const v = parseVersion(norm ? normalize(s) : s);
  return typeof v === 'string' ? new CelError(v) : new SemverValue(v);
}

const V = (x: unknown): Version => (x as SemverValue).v;

/** The declarations of the semver library. */
export function semverFunctions(): FunctionDecl[] {
  return [
    fn(
      'semver',
      overload('string_to_semver', '(string) -> kubernetes.Semver', (a) => semver(a[0] as string, false)),
      overload('string_bool_to_semver', '(string, bool) -> kubernetes.Semver', (a) => semver(a[0] as string, a[1] as boolean)),
    ),
    fn(
      'isSemver',
      overload('is_semver_string', '(string) -> bool', (a) => !(semver(a[0] as string, false) instanceof CelError)),
      overload('is_semver_string_bool', '(string, bool) -> bool', (a) => !(semver(a[0] as string, a[1] as boolean) instanceof CelError)),
    ),
    fn(
      'isGreaterThan',
      overload('semver_is_greater_than', 'kubernetes.Semver.(kubernetes.Semver) -> bool', (a) => compareVersions(V(a[0]), V(a[1])) > 0),
    ),
    fn(
      'isLessThan',
      overload('semver_is_less_than', 'kubernetes.Semver.(kubernetes.Semver) -> bool', (a) => compareVersions(V(a[0]), V(a[1])) < 0),
    ),
    fn(
      'compareTo',
      overload('semver_compare_to', 'kubernetes.Semver.(kubernetes.Semver) -> int', (a) => BigInt(compareVersions(V(a[0]), V(a[1])))),
    ),
    fn(
      'major',
      overload('semver_major', 'kubernetes.Semver.() -> int', (a) => V(a[0]).major),
    ),
    fn(
      'minor',
      overload('semver_minor', 'kubernetes.Semver.() -> int', (a) => V(a[0]).minor),
    ),
    fn(
      'patch',
      overload('semver_patch', 'kubernetes.Semver.() -> int', (a) => V(a[0]).patch),
    ),
  ];
}
