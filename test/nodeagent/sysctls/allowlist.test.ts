import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSysctlAllowlist, isValidSysctlPattern, SysctlAllowlistError, SYSCTL_PATTERN_FORMAT } from '../../../src/nodeagent/sysctls/allowlist.js';
import { namespacedBy, normalizeSysctlName } from '../../../src/nodeagent/sysctls/namespace.js';

describe('namespacedBy and normalizeSysctlName', () => {
  it.each([
    ['kernel.sem', 'ipc'],
    ['kernel.shmmax', 'ipc'],
    ['kernel.shm_rmid_forced', 'ipc'],
    ['kernel.msgmax', 'ipc'],
    ['fs.mqueue.msg_max', 'ipc'],
    ['net.ipv4.tcp_rmem', 'net'],
    ['net.core.somaxconn', 'net'],
    ['kernel.semx', ''],
    ['kernel.pid_max', ''],
    ['fs.mqueue', ''],
    ['vm.swappiness', ''],
  ])('%s is namespaced by %j', (name, ns) => {
    expect(namespacedBy(name)).toBe(ns);
  });

  it.each([
    ['kernel.shm_rmid_forced', 'kernel.shm_rmid_forced'],
    ['kernel/shm_rmid_forced', 'kernel.shm_rmid_forced'],
    ['net.ipv4.conf.eno2/100.rp_filter', 'net.ipv4.conf.eno2/100.rp_filter'],
    ['net/ipv4/conf/eno2.100/rp_filter', 'net.ipv4.conf.eno2/100.rp_filter'],
    ['kernel', 'kernel'],
    ['', ''],
  ])('%s is %s with dots', (name, out) => {
    expect(normalizeSysctlName(name)).toBe(out);
  });
});

describe('createSysctlAllowlist (NewAllowlist)', () => {
  it.each(['kernel.msg*', 'kernel.shm_rmid_forced', 'net.*', 'net/ipv4/*', 'kernel.sem', 'fs.mqueue.*', 'net.ipv4.conf.eth0.rp_filter'])('accepts %s', (p) => {
    expect(() => createSysctlAllowlist([p])).not.toThrow();
  });

  it.each([
    ['foo', 'the sysctl "foo" are not known to be namespaced'],
    ['kernel.pid_max', 'the sysctl "kernel.pid_max" are not known to be namespaced'],
    ['kernel.*', 'the sysctls "kernel.*" are not known to be namespaced'],
    ['vm/*', 'the sysctls "vm.*" are not known to be namespaced'],
    ['*', 'the sysctls "*" are not known to be namespaced'],
  ])('refuses %s: %s', (p, message) => {
    expect(() => createSysctlAllowlist([p])).toThrow(new SysctlAllowlistError(message));
  });

  it.each(['net.*.foo', '.net', 'net..ipv4', 'Net.ipv4', 'net.ipv4.', 'net.-x', 'a'.repeat(254), 'net.ipv4 x', 'net.*/'])(
    'refuses the malformed pattern %j with the pattern and length in the message',
    (p) => {
      expect(() => createSysctlAllowlist([p])).toThrow(
        new SysctlAllowlistError(`sysctl ${JSON.stringify(p)} must have at most 253 characters and match regex ${SYSCTL_PATTERN_FORMAT}`),
      );
    },
  );

  it('matches exact names and prefixes; forbids net sysctls with the host network, ipc ones with host IPC', () => {
    const list = createSysctlAllowlist(['kernel.msg*', 'kernel.shm_rmid_forced', 'net.ipv4.route.*', 'net.core.somaxconn']);
    expect(list.check('kernel.msgmax', false, false)).toBeUndefined();
    expect(list.check('kernel/msgmax', false, false)).toBeUndefined();
    expect(list.check('net.ipv4.route.min_pmtu', false, false)).toBeUndefined();
    expect(list.check('net.core.somaxconn', false, true)).toBeUndefined();
    expect(list.check('kernel.shm_rmid_forced', true, false)).toBeUndefined();
    expect(list.check('net.core.somaxconn', true, false)).toBe('"net.core.somaxconn" not allowed with host net enabled');
    expect(list.check('net.ipv4.route.min_pmtu', true, false)).toBe('"net.ipv4.route.min_pmtu" not allowed with host net enabled');
    expect(list.check('kernel.msgmax', false, true)).toBe('"kernel.msgmax" not allowed with host ipc enabled');
    expect(list.check('kernel.shm_rmid_forced', false, true)).toBe('"kernel.shm_rmid_forced" not allowed with host ipc enabled');
    expect(list.check('net.core.rmem_max', false, false)).toBe('"net.core.rmem_max" not allowlisted');
    expect(list.check('net/ipv4/ip_forward', false, false)).toBe('"net.ipv4.ip_forward" not allowlisted');
  });

  it('pattern validation is total and agrees with construction', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300, unit: fc.constantFrom('a', 'z', '0', '.', '/', '*', '-', '_', 'N', ' ', '\n') }), (p) => {
        const valid = isValidSysctlPattern(p);
        try {
          createSysctlAllowlist([p]);
          expect(valid).toBe(true);
        } catch (e) {
          expect(e).toBeInstanceOf(SysctlAllowlistError);
          if (!valid) expect((e as Error).message).toContain('must have at most 253 characters');
        }
      }),
    );
  });
});
