import { describe, expect, it } from 'vitest';
import { prettyNameOf, readHostFacts } from '../../../src/nodeagent/node/host-facts.js';

describe('host facts', () => {
  it('reads PRETTY_NAME of os-release, quoted or not, and says Linux without one, as cAdvisor does', () => {
    expect(prettyNameOf('NAME="Ubuntu"\nPRETTY_NAME="Ubuntu 24.04.1 LTS"\nID=ubuntu\n')).toBe('Ubuntu 24.04.1 LTS');
    expect(prettyNameOf("PRETTY_NAME='Debian GNU/Linux 12 (bookworm)'")).toBe('Debian GNU/Linux 12 (bookworm)');
    expect(prettyNameOf('PRETTY_NAME=Alpine')).toBe('Alpine');
    expect(prettyNameOf('')).toBe('Linux');
  });

  it('describes this machine with Go names for the OS and architecture', () => {
    const facts = readHostFacts('/nonexistent/root');
    expect(facts.operatingSystem).toBe(process.platform === 'win32' ? 'windows' : process.platform);
    expect(['amd64', 'arm64', 'arm', '386', 'ppc64le', 's390x', 'riscv64']).toContain(facts.architecture);
    expect(facts.cpuCores).toBeGreaterThan(0);
    expect(facts.memoryBytes).toBeGreaterThan(0);
    expect(facts.ephemeralStorageBytes).toBeGreaterThan(0);
    expect(facts.ipv4Addresses.every((ip) => !ip.startsWith('127.'))).toBe(true);
  });
});
