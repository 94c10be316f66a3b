import { describe, expect, it } from 'vitest';
import { ConfigDecodeError, MAX_CONFIG_BYTES } from '../../../src/config/decode.js';
import {
  decodeDropInObject,
  decodeMergedConfiguration,
  decodeNodeAgentConfiguration,
  isNodeAgentConfigurationKind,
  NodeAgentConfigurationSchema,
} from '../../../src/config/nodeagent/index.js';

const head = 'apiVersion: nodeagent.config.k8s.io/v1beta1\nkind: NodeAgentConfiguration\n';
const decode = (body: string, strict = false) => decodeNodeAgentConfiguration(head + body, { strict });

/** Every field of kubelet's KubeletConfiguration v1beta1 (types.go), with a value of its type. */
const EVERY_UPSTREAM_FIELD = `apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
enableServer: true
staticPodPath: /etc/kubernetes/manifests
podLogsDir: /var/log/pods
syncFrequency: 1m
fileCheckFrequency: 20s
httpCheckFrequency: 20s
staticPodURL: http://example.com/pods
staticPodURLHeader: { a: [b] }
address: 0.0.0.0
port: 10250
readOnlyPort: 0
tlsCertFile: a.crt
tlsPrivateKeyFile: a.key
tlsCipherSuites: [TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256]
tlsCurvePreferences: [23]
tlsMinVersion: VersionTLS12
rotateCertificates: true
serverTLSBootstrap: false
authentication: { x509: { clientCAFile: ca.crt }, webhook: { enabled: true, cacheTTL: 2m }, anonymous: { enabled: false } }
authorization: { mode: Webhook, webhook: { cacheAuthorizedTTL: 5m, cacheUnauthorizedTTL: 30s } }
registryPullQPS: 5
registryBurst: 10
imagePullCredentialsVerificationPolicy: NeverVerifyPreloadedImages
preloadedImagesVerificationAllowlist: []
eventRecordQPS: 50
eventBurst: 100
enableDebuggingHandlers: true
enableContentionProfiling: false
healthzPort: 10248
healthzBindAddress: 127.0.0.1
oomScoreAdj: -999
clusterDomain: cluster.local
clusterDNS: [10.96.0.10]
streamingConnectionIdleTimeout: 4h
nodeStatusUpdateFrequency: 10s
nodeStatusReportFrequency: 5m
nodeLeaseDurationSeconds: 40
imageMinimumGCAge: 2m
imageMaximumGCAge: 0s
imageGCHighThresholdPercent: 85
imageGCLowThresholdPercent: 80
volumeStatsAggPeriod: 1m
kubeletCgroups: ""
systemCgroups: ""
cgroupRoot: /
cgroupsPerQOS: true
cgroupDriver: systemd
cpuManagerPolicy: none
singleProcessOOMKill: false
cpuManagerPolicyOptions: { a: b }
cpuManagerReconcilePeriod: 10s
draManagerReconcilePeriod: 60s
memoryManagerPolicy: None
topologyManagerPolicy: none
topologyManagerScope: container
topologyManagerPolicyOptions: { a: b }
qosReserved: { memory: 50% }
runtimeRequestTimeout: 2m
hairpinMode: promiscuous-bridge
maxPods: 110
podCIDR: 10.0.0.0/24
podPidsLimit: -1
resolvConf: /etc/resolv.conf
runOnce: false
cpuCFSQuota: true
cpuCFSQuotaPeriod: 100ms
nodeStatusMaxImages: 50
maxOpenFiles: 1000000
contentType: application/json
kubeAPIQPS: 50
kubeAPIBurst: 100
serializeImagePulls: true
maxParallelImagePulls: 1
evictionHard: { memory.available: 100Mi }
evictionSoft: { memory.available: 200Mi }
evictionSoftGracePeriod: { memory.available: 1m }
evictionPressureTransitionPeriod: 5m
evictionMaxPodGracePeriod: 0
evictionMinimumReclaim: { imagefs.available: 2Gi }
mergeDefaultEvictionSettings: false
podsPerCore: 0
enableControllerAttachDetach: true
protectKernelDefaults: false
makeIPTablesUtilChains: true
iptablesMasqueradeBit: 14
iptablesDropBit: 15
featureGates: { ContainerCheckpoint: true }
failSwapOn: true
memorySwap: { swapBehavior: NoSwap }
containerLogMaxSize: 10Mi
containerLogMaxFiles: 5
containerLogMaxWorkers: 1
containerLogMonitorInterval: 10s
configMapAndSecretChangeDetectionStrategy: Watch
systemReserved: { cpu: 100m }
kubeReserved: { cpu: 100m }
reservedSystemCPUs: ""
showHiddenMetricsForVersion: ""
systemReservedCgroup: ""
kubeReservedCgroup: ""
enforceNodeAllocatable: [pods]
allowedUnsafeSysctls: [net.core.somaxconn]
volumePluginDir: /usr/libexec/kubernetes/kubelet-plugins/volume/exec/
providerID: ""
kernelMemcgNotification: false
logging: { format: text, flushFrequency: 5s, verbosity: 2, vmodule: [{ filePattern: x, verbosity: 3 }], options: { text: { infoBufferSize: "0" } } }
enableSystemLogHandler: true
enableSystemLogQuery: false
shutdownGracePeriod: 30s
shutdownGracePeriodCriticalPods: 10s
shutdownGracePeriodByPodPriority: []
crashLoopBackOff: {}
reservedMemory: [{ numaNode: 0, limits: { memory: 1Gi } }]
enableProfilingHandler: true
enableDebugFlagsHandler: true
seccompDefault: false
memoryThrottlingFactor: 0.9
memoryReservationPolicy: None
registerWithTaints: [{ key: a, value: b, effect: NoSchedule }]
registerNode: true
tracing: { endpoint: "localhost:4317", samplingRatePerMillion: 0 }
localStorageCapacityIsolation: true
containerRuntimeEndpoint: unix:///run/containerd/containerd.sock
imageServiceEndpoint: ""
failCgroupV1: false
userNamespaces: { idsPerPod: 65536 }
podHousekeepingPeriod: 2s
`;

describe('decodeNodeAgentConfiguration', () => {
  it('knows every field of KubeletConfiguration v1beta1: a full kubelet file decodes strictly', () => {
    const { config, warnings } = decodeNodeAgentConfiguration(EVERY_UPSTREAM_FIELD, { strict: true });
    expect(warnings).toEqual([]);
    expect(config.kind).toBe('KubeletConfiguration');
    expect(config.port).toBe(10250);
    expect(config.authentication?.x509?.clientCAFile).toBe('ca.crt');
    expect(config.userNamespaces?.idsPerPod).toBe(65536);
    // Every field written is kept.
    const written = EVERY_UPSTREAM_FIELD.split('\n')
      .filter((l) => /^[a-zA-Z0-9]+:/.test(l))
      .map((l) => l.slice(0, l.indexOf(':')));
    expect(Object.keys(config).sort()).toEqual([...new Set(written)].sort());
    expect(Object.keys(NodeAgentConfigurationSchema().shape).sort()).toEqual([...new Set(written)].sort());
  });

  it('reads memkube NodeAgentConfiguration and kubelet KubeletConfiguration as the same kind', () => {
    const a = decode('port: 1234\n').config;
    const b = decodeNodeAgentConfiguration('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nport: 1234\n').config;
    expect(a.port).toBe(1234);
    expect(b.port).toBe(1234);
    expect({ ...a, apiVersion: '', kind: '' }).toEqual({ ...b, apiVersion: '', kind: '' });
  });

  it('reads JSON', () => {
    const { config } = decodeNodeAgentConfiguration('{"apiVersion":"kubelet.config.k8s.io/v1beta1","kind":"KubeletConfiguration","maxPods":7}');
    expect(config.maxPods).toBe(7);
  });

  it('refuses a wrong or missing apiVersion/kind with the serializer messages', () => {
    expect(() => decodeNodeAgentConfiguration('apiVersion: kubelet.config.k8s.io/v1\nkind: KubeletConfiguration\n')).toThrow(
      'no kind "KubeletConfiguration" is registered for version "kubelet.config.k8s.io/v1"',
    );
    expect(() => decodeNodeAgentConfiguration('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: NodeAgentConfiguration\n')).toThrow(
      'no kind "NodeAgentConfiguration" is registered for version "kubelet.config.k8s.io/v1beta1"',
    );
    expect(() => decodeNodeAgentConfiguration('port: 1\n')).toThrow("Object 'Kind' is missing in 'port: 1'");
    expect(() => decodeNodeAgentConfiguration('kind: KubeletConfiguration\n')).toThrow("Object 'apiVersion' is missing");
    expect(() => decodeNodeAgentConfiguration('- a\n')).toThrow('cannot unmarshal array into Go value');
    expect(() => decodeNodeAgentConfiguration('# only a comment\n')).toThrow("Object 'Kind' is missing");
  });

  it('fails on wrong types with Go messages', () => {
    expect(() => decode('port: "10250"\n')).toThrow(ConfigDecodeError);
    expect(() => decode('port: "10250"\n')).toThrow('json: cannot unmarshal string into Go struct field KubeletConfiguration.port of type int32');
    expect(() => decode('port: 99999999999\n')).toThrow('cannot unmarshal number 99999999999 into Go struct field KubeletConfiguration.port of type int32');
    expect(() => decode('enableServer: yes-please\n')).toThrow('cannot unmarshal string into Go struct field KubeletConfiguration.enableServer of type bool');
    expect(() => decode('authentication: { anonymous: { enabled: 1 } }\n')).toThrow(
      'KubeletAnonymousAuthentication.authentication.anonymous.enabled of type bool',
    );
  });

  it('fails on a bad duration with time.ParseDuration messages and normalizes good ones to Duration.String()', () => {
    expect(() => decode('syncFrequency: soon\n')).toThrow('time: invalid duration "soon"');
    expect(() => decode('fileCheckFrequency: "20"\n')).toThrow('time: missing unit in duration "20"');
    expect(() => decode('authentication: { webhook: { cacheTTL: 1d } }\n')).toThrow('time: unknown unit "d" in duration "1d"');
    const { config } = decode('syncFrequency: 60s\nshutdownGracePeriod: 90s\nauthorization: { webhook: { cacheAuthorizedTTL: 0.5m } }\n');
    expect(config.syncFrequency).toBe('1m0s');
    expect(config.shutdownGracePeriod).toBe('1m30s');
    expect(config.authorization?.webhook?.cacheAuthorizedTTL).toBe('30s');
  });

  it('checks the embedded logging section as component-base decodes it', () => {
    expect(() => decode('logging: { flushFrequency: often }\n')).toThrow('time: invalid duration "often"');
    expect(decode('logging: { flushFrequency: 1000000000 }\n').config.logging?.flushFrequency).toBe(1000000000);
  });

  it('warns for unknown and duplicated fields (kubelet decodes v1beta1 leniently), and refuses them when strict', () => {
    const { config, warnings } = decode('port: 1\nport: 2\nbogus: 1\nauthentication: { anonymous: { enabled: true, extra: 1 } }\n');
    expect(config.port).toBe(2);
    expect(config).not.toHaveProperty('bogus');
    expect(warnings).toEqual([
      'Using lenient decoding as strict decoding failed: strict decoding error: json: duplicate field "port", unknown field "bogus", unknown field "authentication.anonymous.extra"',
    ]);
    expect(() => decode('bogus: 1\n', true)).toThrow('strict decoding error: unknown field "bogus"');
  });

  it('refuses hostile text: syntax errors, alias bombs, deep nesting, huge files', () => {
    expect(() => decode('port: [1\n')).toThrow(/^error converting YAML to JSON: yaml: /);
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++)
      bomb.push(
        `${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9)
          .fill(`*${String.fromCharCode(96 + i)}`)
          .join(',')}]`,
      );
    expect(() => decode(`staticPodURLHeader:\n${bomb.map((l) => `  ${l}`).join('\n')}\n`)).toThrow(/error converting YAML to JSON/);
    expect(() => decode(`featureGates: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)).toThrow('exceeded max depth');
    expect(() => decode(`clusterDomain: "${'x'.repeat(MAX_CONFIG_BYTES)}"\n`)).toThrow(`configuration is larger than ${MAX_CONFIG_BYTES} bytes`);
  });
});

describe('drop-in decoding', () => {
  it('passes unknown fields on, refuses duplicated ones, and reports apiVersion/kind', () => {
    const d = decodeDropInObject('apiVersion: kubelet.config.k8s.io/v1beta1\nkind: KubeletConfiguration\nbogus: 1\nport: "x"\n');
    expect(d.object).toMatchObject({ bogus: 1, port: 'x' });
    expect(isNodeAgentConfigurationKind(d.apiVersion, d.kind)).toBe(true);
    expect(isNodeAgentConfigurationKind('v1', 'Pod')).toBe(false);
    expect(() => decodeDropInObject(head + 'port: 1\nport: 2\n')).toThrow('strict decoding error: json: duplicate field "port"');
  });

  it('decodes a merged object leniently: unknown fields dropped, types checked', () => {
    const c = decodeMergedConfiguration({ apiVersion: 'kubelet.config.k8s.io/v1beta1', kind: 'KubeletConfiguration', bogus: 1, port: 7, syncFrequency: '90s' });
    expect(c).not.toHaveProperty('bogus');
    expect(c.port).toBe(7);
    expect(c.syncFrequency).toBe('1m30s');
    expect(c.kind).toBe('KubeletConfiguration');
    expect(() => decodeMergedConfiguration({ port: 'x' })).toThrow('cannot unmarshal string into Go struct field KubeletConfiguration.port of type int32');
  });
});
