/**
 * A whole node agent from its settings, as `kubelet` starts one (cmd/kubelet/app/server.go `run`
 * and `RunKubelet`): the API server client from `--kubeconfig` (first obtained through TLS
 * bootstrap with `--bootstrap-kubeconfig` when that file is missing or its certificate expired),
 * the CRI client of `containerRuntimeEndpoint`, the image manager with the credential providers,
 * the sysctl admission, the HTTPS server and the agent itself. `memkube node-agent` is this
 * function behind the command line; a program can call it with settings of its own and hand it
 * a runtime or an API server client it already has.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { ImageService, RuntimeService } from '../cri/api.js';
import { createCriClient } from '../cri/client.js';
import type { Clock } from '../clock.js';
import { durationMillis } from '../config/nodeagent/go-duration.js';
import { resolveFeatureGates } from '../config/nodeagent/feature-gates.js';
import { MetricsRegistry } from '../metrics/registry.js';
import { createNodeAgent, nodeNameOf, type NodeAgent } from './agent.js';
import { instrumentRuntime } from './metrics/runtime-metrics.js';
import { silentLog, type AgentLog } from './agent-log.js';
import { kubeApiClientFromKubeconfig } from './apiclient/kubeconfig-client.js';
import { bootstrapClientCertificate, isKubeconfigStillValid } from './bootstrap/client-certificate.js';
import type { NodeAgentSettings } from './config/load.js';
import { createCredentialProviders } from './images/credential-providers.js';
import { createImagePullManager } from './images/pull-manager.js';
import type { ImagePullCredentialsVerificationPolicy } from './images/pull-policy.js';
import type { KubeApiClient } from './kube-api.js';
import { managedImages } from './pods/managed-images.js';
import { createNodeAgentServer, type NodeAgentServer } from './server/server.js';
import { createSysctlAdmitter } from './sysctls/admit.js';
import type { GoTlsVersion } from './server/tls-settings.js';

/**
 * What {@link runNodeAgent} is given besides the settings.
 * @category Node agent
 */
export interface RunNodeAgentOptions {
  /** Flags, configuration file and drop-ins, combined (`loadNodeAgentSettings`). */
  readonly settings: NodeAgentSettings;
  /** The container runtime; by default a CRI client of the configuration's `containerRuntimeEndpoint`. */
  readonly runtime?: RuntimeService & ImageService;
  /** The API server; by default the client of `--kubeconfig` (after TLS bootstrap when needed). */
  readonly kube?: KubeApiClient;
  /** The kernel release sysctls are checked against (`uname -r`); this machine's by default. */
  readonly kernelVersion?: string;
  readonly clock?: Clock;
  readonly log?: AgentLog;
}

/**
 * A started node agent.
 * @category Node agent
 */
export interface RunningNodeAgent {
  readonly nodeName: string;
  readonly agent: NodeAgent;
  /** The secured port (10250 by default), or undefined when `enableServer` is false. */
  readonly port?: number;
  /** The read-only port, when one is served. */
  readonly readOnlyPort?: number;
  /** Stops the agent and its server; the pods keep running in the runtime, as after a kubelet restart. */
  stop(): Promise<void>;
}

/**
 * The node agent cannot start; the message says why in kubelet's words.
 * @category Node agent
 */
export class NodeAgentStartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NodeAgentStartError';
  }
}

async function apiServerClient(settings: NodeAgentSettings, nodeName: string, clock: Clock | undefined, metrics: MetricsRegistry): Promise<KubeApiClient> {
  const { kubeconfig, bootstrapKubeconfig, certDir } = settings.flags;
  if (!kubeconfig)
    throw new NodeAgentStartError('standalone mode (no --kubeconfig) is not supported by memkube node-agent: give it the kubeconfig of an API server');
  const now = clock?.now() ?? Date.now();
  if (bootstrapKubeconfig && !(existsSync(kubeconfig) && (await isKubeconfigStillValid(kubeconfig, now)))) {
    mkdirSync(certDir, { recursive: true, mode: 0o700 });
    await bootstrapClientCertificate({
      kubeconfigPath: kubeconfig,
      bootstrapKubeconfigPath: bootstrapKubeconfig,
      certDir,
      nodeName,
      // The bootstrap client's requests (the CertificateSigningRequest) count too, as all of client-go's do in kubelet.
      kube: () => kubeApiClientFromKubeconfig(bootstrapKubeconfig, { metrics }),
      ...(clock ? { clock } : {}),
    });
  }
  return kubeApiClientFromKubeconfig(kubeconfig, { userAgent: 'memkube-node-agent', metrics });
}

/**
 * Starts a node agent as kubelet starts: clients, image manager, server, then the agent's loops.
 * @category Node agent
 */
export async function runNodeAgent(options: RunNodeAgentOptions): Promise<RunningNodeAgent> {
  const { settings } = options;
  const { config, flags } = settings;
  const log = options.log ?? silentLog;
  const nodeName = nodeNameOf({ ...(flags.hostnameOverride ? { hostnameOverride: flags.hostnameOverride } : {}) });
  mkdirSync(flags.rootDir, { recursive: true, mode: 0o750 });
  const gates = resolveFeatureGates(config.featureGates);

  // One registry for the agent, its server and its clients, as kubelet's legacy registry.
  const metrics = new MetricsRegistry({ nativeHistograms: gates.enabled('NativeHistograms') });
  const kube = options.kube ?? (await apiServerClient(settings, nodeName, options.clock, metrics));
  const runtime = instrumentRuntime(options.runtime ?? createCriClient(config.containerRuntimeEndpoint), metrics);
  const credentialProviders = flags.imageCredentialProviderConfig
    ? createCredentialProviders({
        config: flags.imageCredentialProviderConfig,
        binDir: flags.imageCredentialProviderBinDir,
        ...(options.clock ? { clock: options.clock } : {}),
        onError: (provider, error) => log.errorS(error, 'Failed running credential provider plugin', 'plugin', provider),
      })
    : undefined;
  const images = createImagePullManager({
    rootDir: flags.rootDir,
    images: runtime,
    ...(credentialProviders ? { credentialProviders } : {}),
    policy: config.imagePullCredentialsVerificationPolicy as ImagePullCredentialsVerificationPolicy,
    allowlist: config.preloadedImagesVerificationAllowlist,
    ...(options.clock ? { clock: options.clock } : {}),
    onWarning: (message) => log.infoS(message),
  });
  const sysctls = createSysctlAdmitter({
    allowedUnsafeSysctls: config.allowedUnsafeSysctls,
    ...(options.kernelVersion !== undefined ? { kernelVersion: options.kernelVersion } : {}),
  });

  // The server shows the agent's pods, and the agent reports the server's port: the server starts
  // first with a view that reads the agent once it exists.
  const view: { agent?: NodeAgent } = {};
  let server: NodeAgentServer | undefined;
  let port: number | undefined;
  let readOnlyPort: number | undefined;
  if (config.enableServer) {
    server = createNodeAgentServer({
      address: config.address,
      port: config.port,
      readOnlyPort: config.readOnlyPort,
      tls: {
        ...(config.tlsCertFile ? { certFile: config.tlsCertFile } : {}),
        ...(config.tlsPrivateKeyFile ? { keyFile: config.tlsPrivateKeyFile } : {}),
        certDir: flags.certDir,
        ...(config.tlsMinVersion ? { minVersion: config.tlsMinVersion as GoTlsVersion } : {}),
        ...(config.tlsCipherSuites.length ? { cipherSuites: config.tlsCipherSuites } : {}),
      },
      ...(flags.hostnameOverride ? { hostname: nodeName } : {}),
      authentication: {
        anonymous: config.authentication.anonymous.enabled,
        ...(config.authentication.x509.clientCAFile ? { clientCAFile: config.authentication.x509.clientCAFile } : {}),
        webhook: { enabled: config.authentication.webhook.enabled, cacheTTLms: durationMillis(config.authentication.webhook.cacheTTL) },
      },
      authorization: {
        mode: config.authorization.mode as 'AlwaysAllow' | 'Webhook',
        cacheAuthorizedTTLms: durationMillis(config.authorization.webhook.cacheAuthorizedTTL),
        cacheUnauthorizedTTLms: durationMillis(config.authorization.webhook.cacheUnauthorizedTTL),
      },
      featureGates: {
        ContainerCheckpoint: gates.enabled('ContainerCheckpoint'),
        KubeletFineGrainedAuthz: gates.enabled('KubeletFineGrainedAuthz'),
        PodLogsQuerySplitStreams: gates.enabled('PodLogsQuerySplitStreams'),
        ComponentSLIs: gates.enabled('ComponentSLIs'),
      },
      metrics,
      syncLoopHealth: () => view.agent?.syncLoopHealth(),
      enableDebuggingHandlers: config.enableDebuggingHandlers,
      rootDir: flags.rootDir,
      nodeName,
      pods: { byName: (namespace, name) => view.agent?.pods.byName(namespace, name), all: () => view.agent?.pods.all() ?? [] },
      runtime,
      kube,
      ...(options.clock ? { clock: options.clock } : {}),
    });
    const address = await server.listen();
    port = address.port;
    readOnlyPort = address.readOnlyPort;
  }

  const agent = createNodeAgent({
    kube,
    runtime,
    nodeName,
    ...(flags.nodeIp ? { nodeIp: flags.nodeIp } : {}),
    serverPort: port ?? config.port,
    ...(config.staticPodPath ? { staticPodPath: config.staticPodPath } : {}),
    ...(config.staticPodURL ? { staticPodURL: config.staticPodURL, staticPodURLHeader: config.staticPodURLHeader } : {}),
    podLogsDir: config.podLogsDir,
    rootDir: flags.rootDir,
    maxPods: config.maxPods,
    ...(Object.keys(flags.nodeLabels).length ? { nodeLabels: flags.nodeLabels } : {}),
    nodeStatusUpdateFrequencyMs: durationMillis(config.nodeStatusUpdateFrequency),
    nodeLeaseDurationSeconds: config.nodeLeaseDurationSeconds,
    fileCheckFrequencyMs: durationMillis(config.fileCheckFrequency),
    httpCheckFrequencyMs: durationMillis(config.httpCheckFrequency),
    admitters: [(pod) => sysctls.admit(pod)],
    imageEnsurer: managedImages(images, kube),
    metrics,
    ...(options.clock ? { clock: options.clock } : {}),
    log,
  });
  view.agent = agent;
  try {
    await agent.start();
  } catch (e) {
    await server?.close();
    throw e;
  }
  return {
    nodeName,
    agent,
    ...(port !== undefined ? { port } : {}),
    ...(readOnlyPort !== undefined ? { readOnlyPort } : {}),
    async stop() {
      await agent.stop();
      await server?.close();
      kube.close();
      if (!options.runtime && 'close' in runtime && typeof runtime.close === 'function') (runtime as { close(): void }).close();
    },
  };
}
