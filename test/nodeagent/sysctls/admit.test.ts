import { describe, expect, it } from 'vitest';
import { createSysctlAdmitter, type SysctlPod } from '../../../src/nodeagent/sysctls/admit.js';
import { SysctlAllowlistError } from '../../../src/nodeagent/sysctls/allowlist.js';
import { KERNEL_REQUIREMENTS, kernelSupports } from '../../../src/nodeagent/sysctls/kernel-features.js';
import { KernelVersion, KernelVersionError } from '../../../src/nodeagent/sysctls/kernel-version.js';
import { safeSysctlAllowlist } from '../../../src/nodeagent/sysctls/safe-sysctls.js';

const pod = (sysctls: string[], spec: { hostNetwork?: boolean; hostIPC?: boolean } = {}): SysctlPod => ({
  spec: { ...spec, securityContext: { sysctls: sysctls.map((name) => ({ name, value: '1' })) } },
});

const forbidden = (message: string) => ({ admit: false, reason: 'SysctlForbidden', message });

const ALWAYS = [
  'kernel.shm_rmid_forced',
  'net.ipv4.ip_local_port_range',
  'net.ipv4.tcp_syncookies',
  'net.ipv4.ping_group_range',
  'net.ipv4.ip_unprivileged_port_start',
];

describe('safeSysctlAllowlist', () => {
  it.each([
    [undefined, ALWAYS],
    ['3.10.0-1160.el7.x86_64', ALWAYS],
    ['3.18.0-957.27.2.el7.x86_64', [...ALWAYS, 'net.ipv4.ip_local_reserved_ports']],
    ['4.5.0', [...ALWAYS, 'net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']],
    [
      '4.14.300',
      [
        ...ALWAYS,
        'net.ipv4.ip_local_reserved_ports',
        'net.ipv4.tcp_keepalive_time',
        'net.ipv4.tcp_fin_timeout',
        'net.ipv4.tcp_keepalive_intvl',
        'net.ipv4.tcp_keepalive_probes',
      ],
    ],
    [
      '5.15.0-75-generic',
      [
        ...ALWAYS,
        'net.ipv4.ip_local_reserved_ports',
        'net.ipv4.tcp_keepalive_time',
        'net.ipv4.tcp_fin_timeout',
        'net.ipv4.tcp_keepalive_intvl',
        'net.ipv4.tcp_keepalive_probes',
        'net.ipv4.tcp_rmem',
        'net.ipv4.tcp_wmem',
      ],
    ],
  ])('kernel %s allows %j', (release, expected) => {
    expect(safeSysctlAllowlist(release === undefined ? undefined : KernelVersion.parse(release))).toEqual(expected);
  });
});

describe('createSysctlAdmitter', () => {
  it('admits pods without sysctls and with safe ones', () => {
    const admitter = createSysctlAdmitter({ kernelVersion: '5.15.0-91-generic' });
    expect(admitter.admit({})).toEqual({ admit: true });
    expect(admitter.admit({ spec: {} })).toEqual({ admit: true });
    expect(admitter.admit(pod(['net.ipv4.tcp_rmem', 'kernel.shm_rmid_forced', 'net/ipv4/ip_local_port_range']))).toEqual({ admit: true });
  });

  it('rejects a sysctl the kernel does not namespace with SysctlForbidden', () => {
    const old = createSysctlAdmitter({ kernelVersion: '4.4.0-210-generic' });
    expect(old.admit(pod(['net.ipv4.tcp_keepalive_time']))).toEqual(forbidden('forbidden sysctl: "net.ipv4.tcp_keepalive_time" not allowlisted'));
    expect(old.admit(pod(['net.ipv4.ip_local_reserved_ports']))).toEqual({ admit: true });
    const rhel7 = createSysctlAdmitter({ kernelVersion: '3.10.0-1160.el7.x86_64' });
    expect(rhel7.admit(pod(['net.ipv4.ip_local_reserved_ports']))).toEqual(forbidden('forbidden sysctl: "net.ipv4.ip_local_reserved_ports" not allowlisted'));
    const wsl = createSysctlAdmitter({ kernelVersion: '4.14.0-microsoft-standard-WSL2' });
    expect(wsl.admit(pod(['net.ipv4.tcp_fin_timeout']))).toEqual({ admit: true });
    expect(wsl.admit(pod(['net.ipv4.tcp_wmem']))).toEqual(forbidden('forbidden sysctl: "net.ipv4.tcp_wmem" not allowlisted'));
  });

  it('an unknown kernel allows only the sysctls needing no particular kernel', () => {
    const unknown = createSysctlAdmitter({ kernelVersion: null });
    expect(unknown.allowed).toEqual(ALWAYS);
    expect(unknown.admit(pod(['net.ipv4.tcp_rmem'])).admit).toBe(false);
  });

  it('rejects unsafe sysctls unless allowed, reporting the first offending one', () => {
    const strict = createSysctlAdmitter({ kernelVersion: '6.1.0-13-amd64' });
    expect(strict.admit(pod(['kernel.shm_rmid_forced', 'kernel.msgmax', 'net.core.somaxconn']))).toEqual(
      forbidden('forbidden sysctl: "kernel.msgmax" not allowlisted'),
    );
    const lenient = createSysctlAdmitter({ kernelVersion: '6.1.0-13-amd64', allowedUnsafeSysctls: ['kernel.msg*', 'net.core.somaxconn'] });
    expect(lenient.admit(pod(['kernel.shm_rmid_forced', 'kernel.msgmax', 'net.core.somaxconn']))).toEqual({ admit: true });
    // Allowing the unsafe sysctl admits it on an old kernel too: the runtime has the last word.
    const oldButAllowed = createSysctlAdmitter({ kernelVersion: '4.4', allowedUnsafeSysctls: ['net.ipv4.tcp_rmem'] });
    expect(oldButAllowed.admit(pod(['net.ipv4.tcp_rmem']))).toEqual({ admit: true });
  });

  it('forbids net sysctls to host-network pods and ipc sysctls to host-IPC pods', () => {
    const admitter = createSysctlAdmitter({ kernelVersion: '6.1.0', allowedUnsafeSysctls: ['kernel.msg*', 'fs.mqueue.*'] });
    expect(admitter.admit(pod(['net.ipv4.ip_local_port_range'], { hostNetwork: true }))).toEqual(
      forbidden('forbidden sysctl: "net.ipv4.ip_local_port_range" not allowed with host net enabled'),
    );
    expect(admitter.admit(pod(['net.ipv4.ip_local_port_range'], { hostIPC: true }))).toEqual({ admit: true });
    expect(admitter.admit(pod(['kernel.shm_rmid_forced'], { hostIPC: true }))).toEqual(
      forbidden('forbidden sysctl: "kernel.shm_rmid_forced" not allowed with host ipc enabled'),
    );
    expect(admitter.admit(pod(['fs/mqueue/msg_max'], { hostIPC: true }))).toEqual(
      forbidden('forbidden sysctl: "fs.mqueue.msg_max" not allowed with host ipc enabled'),
    );
    expect(admitter.admit(pod(['kernel.msgmax'], { hostNetwork: true }))).toEqual({ admit: true });
  });

  it('refuses a bad allow list or kernel string up front', () => {
    expect(() => createSysctlAdmitter({ kernelVersion: '6.1', allowedUnsafeSysctls: ['vm.swappiness'] })).toThrow(SysctlAllowlistError);
    expect(() => createSysctlAdmitter({ kernelVersion: '6.1', allowedUnsafeSysctls: ['net.*.x'] })).toThrow(/must have at most 253 characters/);
    expect(() => createSysctlAdmitter({ kernelVersion: 'linux' })).toThrow(KernelVersionError);
  });

  it('defaults to the running kernel', () => {
    expect(createSysctlAdmitter().allowed.slice(0, 5)).toEqual(ALWAYS);
  });
});

describe('kernelSupports', () => {
  it('decides tmpfs noswap by the node agent threshold 6.4, the others by their documented minimum', () => {
    expect(kernelSupports('tmpfsNoswap', '6.3.0')).toBe(false);
    expect(kernelSupports('tmpfsNoswap', '6.4.0-arch1')).toBe(true);
    expect(kernelSupports('pressureStallInformation', '4.19.0+')).toBe(false);
    expect(kernelSupports('pressureStallInformation', KernelVersion.parse('4.20.0'))).toBe(true);
    expect(kernelSupports('userNamespaces', '6.1.0-13-amd64')).toBe(false);
    expect(kernelSupports('userNamespaces', '6.5.0')).toBe(true);
    expect(kernelSupports('recursiveReadOnlyMounts', '5.12')).toBe(true);
    expect(kernelSupports('recursiveReadOnlyMounts', '5.11.22')).toBe(false);
    expect(KERNEL_REQUIREMENTS.tmpfsNoswap.documentedMinKernel).toBe('6.3');
  });
});
