import { describe, expect, it } from 'vitest';
import { legacyNodeAgentDefaults, type NodeAgentConfiguration } from '../../../src/config/nodeagent/index.js';
import {
  CONFIG_FLAG_DEPRECATION,
  NODE_AGENT_FLAGS,
  applyConfigFlags,
  defaultNodeAgentFlags,
  nodeAgentUsage,
  parseNodeAgentFlags,
  type NodeAgentFlagType,
} from '../../../src/nodeagent/config/flags.js';

function run(argv: string[]) {
  const targets = { config: legacyNodeAgentDefaults() as NodeAgentConfiguration, flags: defaultNodeAgentFlags() };
  const { parsed, warnings } = parseNodeAgentFlags(argv, targets);
  return { ...targets, parsed, warnings };
}

function at(root: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((cur, k) => (cur as Record<string, unknown> | undefined)?.[k], root);
}

/** A value of each type and what it becomes. */
const SAMPLES: Record<Exclude<NodeAgentFlagType, 'logging'>, [string, unknown]> = {
  bool: ['false', false],
  string: ['some-text', 'some-text'],
  int32: ['0x2a', 42],
  int64: ['4294967296', 4294967296],
  duration: ['90s', '1m30s'],
  strings: ['a,b', ['a', 'b']],
  ip: ['10.1.2.3', '10.1.2.3'],
  featureGates: ['ContainerCheckpoint=false', { ContainerCheckpoint: false }],
  mapStringString: ['cpu=1', { cpu: '1' }],
  mapStringStringNoSplit: ['a=b,c', { a: 'b,c' }],
  langleMap: ['memory.available<1Gi', { 'memory.available': '1Gi' }],
  colonMultimap: ['a:b', { a: ['b'] }],
  taints: ['k=v:NoSchedule', [{ key: 'k', value: 'v', effect: 'NoSchedule' }]],
  labels: ['a=b', { a: 'b' }],
};

describe('the node agent flags', () => {
  const settable = [...NODE_AGENT_FLAGS.values()].filter((d) => d.type !== 'logging' && !('ignored' in d.target) && d.name !== 'help' && d.name !== 'version');
  it.each(settable.map((d) => [d.name, d] as const))('--%s sets its field', (name, def) => {
    const [text, value] = SAMPLES[def.type as Exclude<NodeAgentFlagType, 'logging'>];
    const r = run([`--${name}=${text}`]);
    const where =
      'config' in def.target ? at(r.config, def.target.config) : (r.flags as unknown as Record<string, unknown>)[(def.target as { flag: string }).flag];
    expect(where).toEqual(value);
  });

  it('has kubelet defaults: flags of the node', () => {
    expect(defaultNodeAgentFlags()).toEqual({
      config: '',
      configDir: '',
      kubeconfig: '',
      bootstrapKubeconfig: '',
      hostnameOverride: '',
      nodeIp: '',
      certDir: '/var/lib/kubelet/pki',
      rootDir: '/var/lib/kubelet',
      cloudProvider: '',
      nodeLabels: {},
      lockFile: '',
      exitOnLockContention: false,
      runtimeCgroups: '',
      imageCredentialProviderConfig: '',
      imageCredentialProviderBinDir: '',
      help: false,
      version: '',
    });
  });

  it('has kubelet defaults: configuration flags without a file', () => {
    const c = run([]).config;
    expect(c).toMatchObject({
      address: '0.0.0.0',
      port: 10250,
      readOnlyPort: 10255,
      authentication: { anonymous: { enabled: true }, webhook: { enabled: false, cacheTTL: '2m0s' } },
      authorization: { mode: 'AlwaysAllow', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } },
      cgroupDriver: 'cgroupfs',
      cgroupRoot: '',
      cgroupsPerQOS: true,
      cpuCFSQuota: true,
      containerLogMaxFiles: 5,
      containerLogMaxSize: '10Mi',
      syncFrequency: '1m0s',
      fileCheckFrequency: '20s',
      httpCheckFrequency: '20s',
      nodeStatusUpdateFrequency: '10s',
      maxPods: 110,
      registerNode: true,
      allowedUnsafeSysctls: [],
      clusterDNS: [],
      clusterDomain: '',
      staticPodPath: '',
    });
  });

  it('reads --pod-manifest-path, --manifest-url and --manifest-url-header into the static pod fields', () => {
    const c = run(['--pod-manifest-path', '/etc/pods', '--manifest-url=http://x/pods', '--manifest-url-header', 'a:1,b:2', '--manifest-url-header=a:3']).config;
    expect(c).toMatchObject({ staticPodPath: '/etc/pods', staticPodURL: 'http://x/pods', staticPodURLHeader: { a: ['1', '3'], b: ['2'] } });
  });

  it('replaces a list on its first use and appends on the next ones', () => {
    expect(run(['--cluster-dns=1.1.1.1', '--cluster-dns=8.8.8.8,9.9.9.9']).config.clusterDNS).toEqual(['1.1.1.1', '8.8.8.8', '9.9.9.9']);
    expect(run(['--enforce-node-allocatable=']).config.enforceNodeAllocatable).toEqual([]);
    expect(run(['--node-labels=a=1', '--node-labels=b=2']).flags.nodeLabels).toEqual({ a: '1', b: '2' });
  });

  it('reads booleans bare, with =false, and with Go spellings', () => {
    expect(run(['--anonymous-auth=false']).config.authentication?.anonymous?.enabled).toBe(false);
    expect(run(['--register-node=F']).config.registerNode).toBe(false);
    expect(run(['--rotate-certificates']).config.rotateCertificates).toBe(true);
    expect(() => run(['--register-node=nope'])).toThrow(
      'invalid argument "nope" for "--register-node" flag: strconv.ParseBool: parsing "nope": invalid syntax',
    );
  });

  it('reads the logging flags into the logging section', () => {
    const c = run(['-v', '4', '--vmodule=x=2', '--logging-format=json', '--log-flush-frequency=2s']).config;
    expect(c.logging).toMatchObject({ verbosity: 4, vmodule: [{ filePattern: 'x', verbosity: 2 }], format: 'json', flushFrequency: '2s' });
    expect(() => run(['--v=high'])).toThrow('invalid argument "high" for "-v, --v" flag: strconv.ParseUint: parsing "high": invalid syntax');
  });

  it("refuses bad values with pflag's message", () => {
    expect(() => run(['--port=x'])).toThrow('invalid argument "x" for "--port" flag: strconv.ParseInt: parsing "x": invalid syntax');
    expect(() => run(['--max-pods', '3000000000'])).toThrow(
      'invalid argument "3000000000" for "--max-pods" flag: strconv.ParseInt: parsing "3000000000": value out of range',
    );
    expect(() => run(['--sync-frequency=1'])).toThrow('invalid argument "1" for "--sync-frequency" flag: time: missing unit in duration "1"');
    expect(() => run(['--address=example.com'])).toThrow('invalid argument "example.com" for "--address" flag: "example.com" is not a valid IP address');
    expect(() => run(['--feature-gates=A'])).toThrow('invalid argument "A" for "--feature-gates" flag: missing bool value for A');
    expect(() => run(['--register-with-taints=a:Maybe'])).toThrow(
      'invalid argument "a:Maybe" for "--register-with-taints" flag: invalid taint effect: Maybe, unsupported taint effect',
    );
    expect(() => run(['--nope'])).toThrow('unknown flag: --nope');
  });

  it('warns once for each deprecated flag used, as pflag prints it', () => {
    const { warnings } = run(['--port=1', '--port=2', '--pod-infra-container-image=pause', '-v=1', '--kubeconfig=k']);
    expect(warnings).toEqual([
      `Flag --port has been deprecated, ${CONFIG_FLAG_DEPRECATION}`,
      'Flag --pod-infra-container-image has been deprecated, will be removed in 1.35. Image garbage collector will get sandbox image information from CRI.',
    ]);
  });

  it('accepts and ignores --pod-infra-container-image', () => {
    const r = run(['--pod-infra-container-image=registry.k8s.io/pause:3.10']);
    expect(JSON.stringify(r.config)).not.toContain('pause');
  });

  it('applies the configuration flags again over a loaded file, keeping the file feature gates the flags did not set', () => {
    const r = run(['--port=1234', '--feature-gates=ContainerCheckpoint=false', '--kubeconfig=/k']);
    const file = { ...legacyNodeAgentDefaults(), port: 1, maxPods: 9, featureGates: { ContainerCheckpoint: true, MemoryQoS: true } } as NodeAgentConfiguration;
    const c = applyConfigFlags(r.parsed, file);
    expect(c).toMatchObject({ port: 1234, maxPods: 9, featureGates: { ContainerCheckpoint: false, MemoryQoS: true } });
    expect(file.port).toBe(1);
  });

  it('prints a usage text with types, defaults and deprecations', () => {
    const text = nodeAgentUsage({ config: legacyNodeAgentDefaults(), flags: defaultNodeAgentFlags() });
    expect(text).toContain('      --port int32    The port to serve on. (default 10250) (DEPRECATED:');
    expect(text).toContain('      --root-dir string    The directory of the agent files (volume mounts, etc). (default "/var/lib/kubelet")');
    expect(text).toContain('  -v, --v Level');
    expect(text).toContain('ContainerCheckpoint=true|false (BETA - default=true)');
    expect(text).toContain('  -h, --help');
  });
});
