/**
 * Security contexts of a Pod (`validatePodSpecSecurityContext` and the profile checks shared with
 * container security contexts): ids, sysctls, seccomp and AppArmor profiles, Windows options.
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { isDNS1123Subdomain } from '../../../schema/validation/names.js';
import type { AppArmorProfile, PodSecurityContext, PodSpec, SeccompProfile, SecurityContext, WindowsSecurityContextOptions } from '../../types/core-v1.js';
import { isValidID, localDescendingPathErrors } from './formats.js';

/** `validateSeccompProfileField`. */
export function seccompProfileErrors(sp: SeccompProfile | undefined, path: string): FieldError[] {
  if (!sp) return [];
  const errs: FieldError[] = [];
  const types = ['Localhost', 'RuntimeDefault', 'Unconfined'];
  if (sp.type === '') errs.push(fieldError.required(child(path, 'type'), 'type is required when seccompProfile is set'));
  else if (!types.includes(sp.type)) errs.push(fieldError.notSupported(child(path, 'type'), sp.type, types));
  if (sp.type === 'Localhost') {
    if (sp.localhostProfile === undefined) errs.push(fieldError.required(child(path, 'localhostProfile'), 'must be set when seccomp type is Localhost'));
    else errs.push(...localDescendingPathErrors(sp.localhostProfile, child(path, 'localhostProfile')));
  } else if (sp.localhostProfile !== undefined) {
    errs.push(fieldError.invalid(child(path, 'localhostProfile'), sp, 'can only be set when seccomp type is Localhost'));
  }
  return errs;
}

/** `ValidateAppArmorProfileField`. */
export function appArmorProfileErrors(profile: AppArmorProfile | undefined, path: string): FieldError[] {
  if (!profile) return [];
  const errs: FieldError[] = [];
  const lp = child(path, 'localhostProfile');
  switch (profile.type) {
    case 'Localhost': {
      const value = profile.localhostProfile;
      if (value === undefined) {
        errs.push(fieldError.required(lp, 'must be set when AppArmor type is Localhost'));
        break;
      }
      if (value.trim() !== value) errs.push(fieldError.invalid(lp, value, 'must not be padded with whitespace'));
      else if (value === '') errs.push(fieldError.required(lp, 'must be set when AppArmor type is Localhost'));
      if (Buffer.byteLength(value, 'utf8') > 4095) errs.push(fieldError.tooLong(lp, 4095));
      break;
    }
    case 'RuntimeDefault':
    case 'Unconfined':
      if (profile.localhostProfile !== undefined)
        errs.push(fieldError.invalid(lp, profile.localhostProfile, 'can only be set when AppArmor type is Localhost'));
      break;
    case '':
      errs.push(fieldError.required(child(path, 'type'), 'type is required when appArmorProfile is set'));
      break;
    default:
      errs.push(fieldError.notSupported(child(path, 'type'), profile.type, ['Localhost', 'RuntimeDefault', 'Unconfined']));
  }
  return errs;
}

/** `validateWindowsSecurityContextOptions` (the format rules; run-as-user domain formats simplified). */
export function windowsOptionsErrors(options: WindowsSecurityContextOptions | undefined, path: string): FieldError[] {
  if (!options) return [];
  const errs: FieldError[] = [];
  if (options.gmsaCredentialSpecName !== undefined) {
    for (const msg of isDNS1123Subdomain(options.gmsaCredentialSpecName))
      errs.push(fieldError.invalid(child(path, 'gmsaCredentialSpecName'), options.gmsaCredentialSpecName, msg));
  }
  if (options.gmsaCredentialSpec !== undefined) {
    const p = child(path, 'gmsaCredentialSpec');
    const n = Buffer.byteLength(options.gmsaCredentialSpec, 'utf8');
    if (n === 0) errs.push(fieldError.invalid(p, options.gmsaCredentialSpec, 'gmsaCredentialSpec cannot be an empty string'));
    else if (n > 64 * 1024) errs.push(fieldError.invalid(p, options.gmsaCredentialSpec, 'gmsaCredentialSpec size must be under 64 KiB'));
  }
  const user = options.runAsUserName;
  if (user !== undefined) {
    const p = child(path, 'runAsUserName');
    const parts = user.split('\\');
    if (user.length === 0) errs.push(fieldError.invalid(p, user, 'runAsUserName cannot be an empty string'));
    // eslint-disable-next-line no-control-regex
    else if (/[\x00-\x1f\x7f]/.test(user)) errs.push(fieldError.invalid(p, user, 'runAsUserName cannot contain control characters'));
    else if (parts.length > 2) errs.push(fieldError.invalid(p, user, 'runAsUserName cannot contain more than one backslash'));
    else {
      const domain = parts.length === 2 ? parts[0]! : '';
      const name = parts.length === 2 ? parts[1]! : parts[0]!;
      if (Buffer.byteLength(domain, 'utf8') >= 256) errs.push(fieldError.invalid(p, user, "runAsUserName's Domain length must be under 256 characters"));
      const netBios = /^[^\\/:*?"<>|.][^\\/:*?"<>|]{0,14}$/.test(domain);
      const dns = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/.test(domain);
      if (parts.length === 2 && !netBios && !dns) errs.push(fieldError.invalid(p, user, "runAsUserName's Domain doesn't match the NetBios nor the DNS format"));
      const n = Buffer.byteLength(name, 'utf8');
      if (n === 0) errs.push(fieldError.invalid(p, user, "runAsUserName's User cannot be empty"));
      else if (n > 104) errs.push(fieldError.invalid(p, user, "runAsUserName's User length must not be longer than 104 characters"));
      if (/^[. ]+$/.test(name)) errs.push(fieldError.invalid(p, user, "runAsUserName's User cannot contain only periods or spaces"));
      if (/["/\\:;|=,+*?<>@[\]]/.test(name))
        errs.push(fieldError.invalid(p, user, `runAsUserName's User cannot contain the following characters: "/\\:;|=,+*?<>@[]`));
    }
  }
  return errs;
}

const SYSCTL_SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';
const SYSCTL_FMT = `(${SYSCTL_SEGMENT}[\\./])*${SYSCTL_SEGMENT}`;
const SYSCTL_RE = new RegExp(`^${SYSCTL_FMT}$`);

/** The namespace a sysctl belongs to (`utilsysctl.GetNamespace`), for the host-namespace rule. */
function sysctlNamespace(name: string): 'net' | 'ipc' | undefined {
  const normalized = name.replaceAll('/', '.');
  if (normalized.startsWith('net.')) return 'net';
  if (
    ['kernel.sem', 'kernel.shmall', 'kernel.shmmax', 'kernel.shmmni', 'kernel.msgmax', 'kernel.msgmnb', 'kernel.msgmni', 'kernel.shm_rmid_forced'].includes(
      normalized,
    )
  )
    return 'ipc';
  if (normalized.startsWith('fs.mqueue.')) return 'ipc';
  return undefined;
}

function sysctlErrors(spec: PodSpec, sc: PodSecurityContext, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  (sc.sysctls ?? []).forEach((s, i) => {
    const p = child(index(path, i), 'name');
    if (!s.name) errs.push(fieldError.required(p));
    else if (Buffer.byteLength(s.name, 'utf8') > 253 || !SYSCTL_RE.test(s.name)) {
      errs.push(fieldError.invalid(p, s.name, `must have at most 253 characters and match regex ^${SYSCTL_FMT}$`));
    } else if (names.has(s.name)) errs.push(fieldError.duplicate(p, s.name));
    const ns = sysctlNamespace(s.name);
    if (spec.hostNetwork && ns === 'net') errs.push(fieldError.invalid(p, s.name, "may not be specified when 'hostNetwork' is true"));
    else if (spec.hostIPC && ns === 'ipc') errs.push(fieldError.invalid(p, s.name, "may not be specified when 'hostIPC' is true"));
    names.add(s.name);
  });
  return errs;
}

/** `validatePodSpecSecurityContext`. */
export function podSecurityContextErrors(spec: PodSpec, path: string): FieldError[] {
  const sc = spec.securityContext;
  if (!sc) return [];
  const errs: FieldError[] = [];
  for (const f of ['fsGroup', 'runAsUser', 'runAsGroup'] as const) {
    const v = sc[f];
    if (v !== undefined) for (const msg of isValidID(v)) errs.push(fieldError.invalid(child(path, f), v, msg));
  }
  (sc.supplementalGroups ?? []).forEach((gid, i) => {
    for (const msg of isValidID(gid)) errs.push(fieldError.invalid(index(child(path, 'supplementalGroups'), i), gid, msg));
  });
  if (spec.shareProcessNamespace === true && spec.hostPID) {
    errs.push(fieldError.invalid(child(path, 'shareProcessNamespace'), true, 'ShareProcessNamespace and HostPID cannot both be enabled'));
  }
  if (sc.sysctls?.length) errs.push(...sysctlErrors(spec, sc, child(path, 'sysctls')));
  if (sc.fsGroupChangePolicy !== undefined && sc.fsGroupChangePolicy !== 'Always' && sc.fsGroupChangePolicy !== 'OnRootMismatch') {
    errs.push(fieldError.notSupported(child(path, 'fsGroupChangePolicy'), sc.fsGroupChangePolicy, ['Always', 'OnRootMismatch']));
  }
  errs.push(...seccompProfileErrors(sc.seccompProfile, child(path, 'seccompProfile')));
  errs.push(...windowsOptionsErrors(sc.windowsOptions, child(path, 'windowsOptions')));
  errs.push(...appArmorProfileErrors(sc.appArmorProfile, child(path, 'appArmorProfile')));
  if (sc.supplementalGroupsPolicy !== undefined && sc.supplementalGroupsPolicy !== 'Merge' && sc.supplementalGroupsPolicy !== 'Strict') {
    errs.push(fieldError.notSupported(child(path, 'supplementalGroupsPolicy'), sc.supplementalGroupsPolicy, ['Merge', 'Strict']));
  }
  if (sc.seLinuxChangePolicy !== undefined && sc.seLinuxChangePolicy !== 'MountOption' && sc.seLinuxChangePolicy !== 'Recursive') {
    errs.push(fieldError.notSupported(child(path, 'seLinuxChangePolicy'), sc.seLinuxChangePolicy, ['MountOption', 'Recursive']));
  }
  return errs;
}

/** `ValidateSecurityContext` (privileged containers are allowed, as `--allow-privileged=true` clusters do). */
export function containerSecurityContextErrors(sc: SecurityContext | undefined, path: string, hostUsers: boolean): FieldError[] {
  if (!sc) return [];
  const errs: FieldError[] = [];
  for (const f of ['runAsUser', 'runAsGroup'] as const) {
    const v = sc[f];
    if (v !== undefined) for (const msg of isValidID(v)) errs.push(fieldError.invalid(child(path, f), v, msg));
  }
  if (sc.procMount !== undefined) {
    if (sc.procMount !== 'Default' && sc.procMount !== 'Unmasked')
      errs.push(fieldError.notSupported(child(path, 'procMount'), sc.procMount, ['Default', 'Unmasked']));
    if (hostUsers && sc.procMount === 'Unmasked')
      errs.push(fieldError.invalid(child(path, 'procMount'), sc.procMount, '`hostUsers` must be false to use `Unmasked`'));
  }
  errs.push(...seccompProfileErrors(sc.seccompProfile, child(path, 'seccompProfile')));
  if (sc.allowPrivilegeEscalation === false) {
    if (sc.privileged === true) errs.push(fieldError.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `privileged` to true'));
    for (const cap of sc.capabilities?.add ?? []) {
      if (cap === 'CAP_SYS_ADMIN')
        errs.push(fieldError.invalid(path, sc, 'cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN'));
    }
  }
  errs.push(...windowsOptionsErrors(sc.windowsOptions, child(path, 'windowsOptions')));
  errs.push(...appArmorProfileErrors(sc.appArmorProfile, child(path, 'appArmorProfile')));
  return errs;
}
