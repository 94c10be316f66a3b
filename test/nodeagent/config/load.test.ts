import { chmodSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, posix } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_CONFIG_BYTES } from '../../../src/config/decode.js';
import { loadNodeAgentSettings, MAX_DROP_IN_FILES, NodeAgentConfigError, type NodeAgentDirEntry } from '../../../src/nodeagent/config/load.js';

const errno = (code: string) => Object.assign(new Error(code), { code });

/** An in-memory tree: paths to file texts (or errors to throw); directories are implied by paths. */
function memFs(files: Record<string, string | Error>) {
  const reads: string[] = [];
  return {
    reads,
    cwd: '/work',
    readFile(path: string): string {
      reads.push(path);
      const f = Object.hasOwn(files, path) ? files[path] : undefined;
      if (f instanceof Error) throw f;
      if (f !== undefined) return f;
      if (Object.keys(files).some((k) => k.startsWith(`${path}/`))) throw errno('EISDIR');
      throw errno('ENOENT');
    },
    readDir(path: string): NodeAgentDirEntry[] {
      if (Object.hasOwn(files, path)) throw errno('ENOTDIR');
      const names = new Map<string, boolean>();
      for (const k of Object.keys(files)) {
        if (!k.startsWith(`${path}/`)) continue;
        const rest = k.slice(path.length + 1);
        const slash = rest.indexOf('/');
        names.set(slash < 0 ? rest : rest.slice(0, slash), slash >= 0);
      }
      if (names.size === 0) throw errno('ENOENT');
      // Unsorted on purpose: the loader sorts as Go's ReadDir does.
      return [...names].reverse().map(([name, isDirectory]) => ({ name, isDirectory }));
    },
  };
}

const KUBELET = 'apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\n';
const AGENT = 'apiVersion: nodeagent.config.k8s.io/v1beta1\nkind: NodeAgentConfiguration\n';
const load = (argv: string[], files: Record<string, string | Error>, strict = false) => loadNodeAgentSettings(argv, { ...memFs(files), strict });
const failure = (argv: string[], files: Record<string, string | Error> = {}) => {
  try {
    load(argv, files);
  } catch (e) {
    expect(e).toBeInstanceOf(NodeAgentConfigError);
    return (e as Error).message;
  }
  throw new Error('expected a failure');
};

describe('loadNodeAgentSettings: sources and precedence', () => {
  it('uses the legacy command-line defaults without --config and --config-dir', () => {
    const s = load([], {});
    expect(s.config).toMatchObject({ readOnlyPort: 10255, authorization: { mode: 'AlwaysAllow' }, authentication: { anonymous: { enabled: true } } });
    expect(s.flags.rootDir).toBe('/var/lib/kubelet');
  });

  it("uses the file's secure defaults with --config", () => {
    const s = load(['--config=/etc/agent.yaml'], { '/etc/agent.yaml': KUBELET });
    expect(s.config).toMatchObject({
      readOnlyPort: 0,
      authorization: { mode: 'Webhook' },
      authentication: { anonymous: { enabled: false }, webhook: { enabled: true } },
      evictionHard: {
        'memory.available': '100Mi',
        'nodefs.available': '10%',
        'nodefs.inodesFree': '5%',
        'imagefs.available': '15%',
        'imagefs.inodesFree': '5%',
      },
    });
  });

  it('lets flags win over the file, and the file over the defaults', () => {
    const s = load(['--config', 'agent.yaml', '--port=2000', '--kubeconfig=/k'], { '/work/agent.yaml': `${AGENT}port: 1000\nmaxPods: 7\n` });
    expect(s.config).toMatchObject({ port: 2000, maxPods: 7 });
    expect(s.flags.kubeconfig).toBe('/k');
  });

  it('merges drop-ins in lexical order, subdirectories included, over the file, under the flags', () => {
    const files = {
      '/etc/agent.yaml': `${AGENT}port: 1000\nmaxPods: 7\nclusterDNS: [1.1.1.1]\nfeatureGates: { ContainerCheckpoint: false }\n`,
      '/etc/agent.d/20-b.conf': `${KUBELET}maxPods: 20\nclusterDomain: b.local\n`,
      '/etc/agent.d/10-a.conf': `${KUBELET}maxPods: 10\nclusterDNS: [10.0.0.10]\nfeatureGates: { MemoryQoS: true }\n`,
      '/etc/agent.d/15-dir/01.conf': `${AGENT}clusterDomain: dir.local\nnodeLeaseDurationSeconds: 15\n`,
      '/etc/agent.d/30-c.yaml': `${KUBELET}maxPods: 30\n`,
      '/etc/agent.d/README': 'not a config',
      '/etc/agent.d/40-d.conf': `${KUBELET}readOnlyPort: null\nsyncFrequency: 90s\n`,
    };
    const s = load(['--config=/etc/agent.yaml', '--config-dir=/etc/agent.d', '--cluster-domain=flag.local'], files);
    expect(s.config).toMatchObject({
      port: 1000,
      maxPods: 20,
      clusterDNS: ['10.0.0.10'],
      clusterDomain: 'flag.local',
      nodeLeaseDurationSeconds: 15,
      syncFrequency: '1m30s',
      readOnlyPort: 0,
      featureGates: { ContainerCheckpoint: false, MemoryQoS: true },
    });
  });

  it('merges drop-ins over the legacy defaults when there is no --config', () => {
    const s = load(['--config-dir=/d'], { '/d/a.conf': `${KUBELET}port: 3000\n` });
    expect(s.config).toMatchObject({ port: 3000, readOnlyPort: 10255, authorization: { mode: 'AlwaysAllow' } });
  });

  it('defaults again after the merge (a drop-in setting the update frequency does not move the report frequency already set)', () => {
    const s = load(['--config=/c.yaml', '--config-dir=/d'], { '/c.yaml': AGENT, '/d/a.conf': `${KUBELET}nodeStatusUpdateFrequency: 20s\nport: null\n` });
    expect(s.config).toMatchObject({ nodeStatusUpdateFrequency: '20s', nodeStatusReportFrequency: '5m0s', port: 10250 });
  });

  it("resolves the file's relative paths against its directory, not the drop-ins' nor the flags'", () => {
    const s = load(['--config=conf/agent.yaml', '--config-dir=/d', '--tls-private-key-file=rel.key'], {
      '/work/conf/agent.yaml': `${AGENT}staticPodPath: manifests\ntlsCertFile: ../pki/a.crt\nauthentication: { x509: { clientCAFile: ca.crt } }\nresolvConf: /etc/resolv.conf\npodLogsDir: /var/log/pods\n`,
      '/d/a.conf': `${KUBELET}volumePluginDir: plugins\n`,
    });
    expect(s.config).toMatchObject({
      staticPodPath: '/work/conf/manifests',
      tlsCertFile: '/work/pki/a.crt',
      tlsPrivateKeyFile: 'rel.key',
      resolvConf: '/etc/resolv.conf',
      volumePluginDir: 'plugins',
      authentication: { x509: { clientCAFile: '/work/conf/ca.crt' } },
    });
  });

  it('reads the same settings from a KubeletConfiguration and a NodeAgentConfiguration', () => {
    const body = 'port: 1\nmaxPods: 2\nclusterDNS: [10.0.0.10]\n';
    const a = load(['--config=/a'], { '/a': KUBELET + body }).config;
    const b = load(['--config=/b'], { '/b': AGENT + body }).config;
    expect({ ...a, kind: '', apiVersion: '' }).toEqual({ ...b, kind: '', apiVersion: '' });
  });

  it('merges feature gates from --feature-gates over the file', () => {
    const s = load(['--config=/c', '--feature-gates=DRAListTypeAttributes=true'], { '/c': `${AGENT}featureGates: { ContainerCheckpoint: false }\n` });
    expect(s.config.featureGates).toEqual({ ContainerCheckpoint: false, DRAListTypeAttributes: true });
  });

  it('returns the usage text for --help without reading anything', () => {
    const fs = memFs({});
    const s = loadNodeAgentSettings(['--help', '--config=/missing'], fs);
    expect(s.usage).toContain('Usage:\n  node-agent [flags]');
    expect(fs.reads).toEqual([]);
  });

  it('warns (kubelet: logs) for unknown fields and refuses them when strict', () => {
    expect(load(['--config=/c'], { '/c': `${AGENT}bogus: 1\n` }).warnings).toEqual([
      'Using lenient decoding as strict decoding failed: strict decoding error: unknown field "bogus"',
    ]);
    expect(() => load(['--config=/c'], { '/c': `${AGENT}bogus: 1\n` }, true)).toThrow(
      'failed to load kubelet config file, path: /c, error: failed to load Kubelet config file /c, error failed to decode: strict decoding error: unknown field "bogus"',
    );
  });
});

describe('loadNodeAgentSettings: errors', () => {
  it('names the flag', () => {
    expect(failure(['--bogus'])).toBe('failed to parse kubelet flag: unknown flag: --bogus');
    expect(failure(['--port=x'])).toBe('failed to parse kubelet flag: invalid argument "x" for "--port" flag: strconv.ParseInt: parsing "x": invalid syntax');
    expect(failure(['run'])).toBe('unknown command run');
    expect(failure(['--feature-gates=Bogus=true'])).toBe('failed to set feature gates from initial flags-based config: unrecognized feature gate: Bogus');
  });

  it('checks --node-labels as ValidateKubeletFlags does', () => {
    expect(failure(['--node-labels=kubernetes.io/role=x'])).toMatch(
      /^failed to validate kubelet flags: unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: \[kubernetes.io\/role\]\n--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix \(kubelet.kubernetes.io, node.kubernetes.io\)/,
    );
    expect(failure(['--node-labels=a=b c'])).toMatch(/^failed to validate kubelet flags: invalid node labels: 'b c' - a valid label must be/);
    expect(load(['--node-labels=node.kubernetes.io/pool=a,kubernetes.io/hostname=h,example.com/x=y'], {}).flags.nodeLabels).toEqual({
      'node.kubernetes.io/pool': 'a',
      'kubernetes.io/hostname': 'h',
      'example.com/x': 'y',
    });
  });

  it('names the file', () => {
    expect(failure(['--config=missing.yaml'])).toBe(
      'failed to load kubelet config file, path: missing.yaml, error: failed to load Kubelet config file missing.yaml, error failed to read kubelet config file "/work/missing.yaml", error: open /work/missing.yaml: no such file or directory',
    );
    expect(failure(['--config=/c'], { '/c': '' })).toBe(
      'failed to load kubelet config file, path: /c, error: failed to load Kubelet config file /c, error kubelet config file "/c" was empty',
    );
    expect(failure(['--config=/c'], { '/c': errno('EACCES') })).toContain('error: open /c: permission denied');
    expect(failure(['--config=/etc'], { '/etc/x': 'x' })).toContain('error: read /etc: is a directory');
    expect(failure(['--config=/c'], { '/c': 'apiVersion: v1\nkind: Pod\n' })).toBe(
      'failed to load kubelet config file, path: /c, error: failed to load Kubelet config file /c, error failed to decode: no kind "Pod" is registered for version "v1"',
    );
    expect(failure(['--config=/c'], { '/c': `${AGENT}port: "x"\n` })).toContain(
      'failed to decode: json: cannot unmarshal string into Go struct field KubeletConfiguration.port of type int32',
    );
    expect(failure(['--config=/c'], { '/c': `${AGENT}featureGates: { Nope: true }\n` })).toBe(
      'failed to load kubelet config file, path: /c, error: unrecognized feature gate: Nope',
    );
  });

  it('names the drop-in', () => {
    expect(failure(['--config-dir=/d'], { '/d/a.conf': 'apiVersion: v1\nkind: Pod\n' })).toBe(
      'failed to merge kubelet configs: failed to walk through kubelet dropin directory "/d": failed to load kubelet dropin file, path: /d/a.conf, unknown apiVersion/kind: /v1, Kind=Pod',
    );
    expect(failure(['--config-dir=/d'], { '/d/a.conf': `${KUBELET}port: 1\nport: 2\n` })).toBe(
      'failed to merge kubelet configs: failed to walk through kubelet dropin directory "/d": failed to load kubelet dropin file, path: /d/a.conf, error: strict decoding error: json: duplicate field "port"',
    );
    expect(failure(['--config-dir=/d'], { '/d/a.conf': '' })).toContain('path: /d/a.conf, error: kubelet config file "/d/a.conf" was empty');
    expect(failure(['--config-dir=/d'], { '/d/a.conf': errno('ELOOP') })).toContain(
      'error: failed to read drop-in kubelet config file "/d/a.conf", error: open /d/a.conf: too many levels of symbolic links',
    );
    expect(failure(['--config-dir=/d'], { '/d/a.conf': `${KUBELET}port: "x"\n` })).toBe(
      'failed to merge kubelet configs: failed to unmarshal merged JSON into kubelet configuration: json: cannot unmarshal string into Go struct field KubeletConfiguration.port of type int32',
    );
    expect(failure(['--config-dir=/nowhere'])).toBe(
      'failed to merge kubelet configs: failed to walk through kubelet dropin directory "/nowhere": lstat /nowhere: no such file or directory',
    );
  });

  it('names the field and its flag', () => {
    expect(failure(['--config=/c'], { '/c': `${AGENT}port: 70000\ncontainerLogMaxFiles: 1\n` })).toBe(
      'failed to validate kubelet configuration, error: [invalid configuration: port (--port) 70000 must be between 1 and 65535, inclusive, invalid configuration: containerLogMaxFiles must be greater than 1]',
    );
    expect(failure(['--container-log-max-files=1'])).toBe(
      'failed to validate kubelet configuration, error: invalid configuration: containerLogMaxFiles must be greater than 1',
    );
  });

  it('bounds the number of drop-ins and the depth of their directories', () => {
    const many: Record<string, string> = {};
    for (let i = 0; i <= MAX_DROP_IN_FILES; i++) many[`/d/${String(i).padStart(5, '0')}.conf`] = KUBELET;
    expect(failure(['--config-dir=/d'], many)).toContain(`more than ${MAX_DROP_IN_FILES} drop-in files`);
    expect(failure(['--config-dir=/d'], { [`/d/${Array(40).fill('x').join('/')}/a.conf`]: KUBELET })).toContain(
      'drop-in directories nest deeper than 32 levels',
    );
  });
});

describe('loadNodeAgentSettings on a real file system', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memkube-agent-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads through symbolic links to files but does not follow links to directories; a link loop is a clear error', () => {
    const d = join(dir, 'd');
    mkdirSync(join(d, 'sub'), { recursive: true });
    writeFileSync(join(dir, 'real.yaml'), `${KUBELET}maxPods: 11\n`);
    symlinkSync(join(dir, 'real.yaml'), join(d, '10-link.conf'));
    writeFileSync(join(d, 'sub', '20.conf'), `${KUBELET}port: 2020\n`);
    symlinkSync(join(d, 'sub'), join(d, '30-dirlink'));
    const s = loadNodeAgentSettings([`--config-dir=${d}`]);
    expect(s.config).toMatchObject({ maxPods: 11, port: 2020 });
    symlinkSync(join(d, '99-loop.conf'), join(d, '99-loop.conf'));
    expect(() => loadNodeAgentSettings([`--config-dir=${d}`])).toThrow(`open ${posix.join(d, '99-loop.conf')}: too many levels of symbolic links`);
  });

  it('never reads more than the size limit (a huge file, /dev/zero)', () => {
    const big = join(dir, 'big.yaml');
    writeFileSync(big, `${KUBELET}# ${'x'.repeat(MAX_CONFIG_BYTES)}\n`);
    expect(() => loadNodeAgentSettings([`--config=${big}`])).toThrow(`file is larger than ${MAX_CONFIG_BYTES} bytes`);
    expect(() => loadNodeAgentSettings(['--config=/dev/zero'])).toThrow(`file is larger than ${MAX_CONFIG_BYTES} bytes`);
  });

  it.skipIf(process.getuid?.() === 0)('reports an unreadable drop-in', () => {
    const d = join(dir, 'locked');
    mkdirSync(d);
    writeFileSync(join(d, 'a.conf'), KUBELET);
    chmodSync(join(d, 'a.conf'), 0);
    expect(() => loadNodeAgentSettings([`--config-dir=${d}`])).toThrow('permission denied');
  });
});

describe('loadNodeAgentSettings on hostile command lines', () => {
  it('fails only with NodeAgentConfigError, whatever the flags and values', async () => {
    const fc = (await import('fast-check')).default;
    const { NODE_AGENT_FLAGS } = await import('../../../src/nodeagent/config/flags.js');
    const names = [...NODE_AGENT_FLAGS.keys()].filter((n) => n !== 'help' && n !== 'version' && n !== 'config' && n !== 'config-dir');
    const value = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom(
        '',
        '0',
        '-1',
        'true',
        'false',
        '1s',
        '0x10',
        'a=b',
        'a=true',
        'k=v:NoSchedule',
        'a:b',
        '10.0.0.1',
        '"',
        ',',
        '__proto__=1',
        'constructor=true',
      ),
    );
    const arg = fc.oneof(
      fc.tuple(fc.constantFrom(...names), value).map(([n, v]) => `--${n}=${v}`),
      fc.constantFrom(...names).map((n) => `--${n}`),
      fc.string({ maxLength: 10 }),
    );
    fc.assert(
      fc.property(fc.array(arg, { maxLength: 8 }), (argv) => {
        try {
          const s = load(argv, {});
          expect(s.config.port).toBeGreaterThan(0);
        } catch (e) {
          expect(e).toBeInstanceOf(NodeAgentConfigError);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('reports a drop-in subdirectory it cannot list', () => {
    const fs = memFs({ '/d/a.conf': KUBELET, '/d/sub/b.conf': KUBELET });
    const readDir = (p: string) => {
      if (p === '/d/sub') throw errno('EACCES');
      return fs.readDir(p);
    };
    expect(() => loadNodeAgentSettings(['--config-dir=/d'], { ...fs, readDir })).toThrow(
      'failed to merge kubelet configs: failed to walk through kubelet dropin directory "/d": open /d/sub: permission denied',
    );
  });

  it('takes a drop-in "directory" that is one file as that file', () => {
    expect(load(['--config-dir=/one.conf'], { '/one.conf': `${KUBELET}maxPods: 3\n` }).config.maxPods).toBe(3);
  });
});
