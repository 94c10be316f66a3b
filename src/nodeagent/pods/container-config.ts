/**
 * The `ContainerConfig` of one container, as kuberuntime's `generateContainerConfig` writes it:
 * metadata with the attempt (restart count), the pulled image, command and args with `$(VAR)`
 * references expanded, environment, working directory, log path `<container>/<restartCount>.log`,
 * kubelet's labels (`newContainerLabels`) and annotations (`newContainerAnnotations`).
 */
import type { Container, EnvVar, Pod } from '../../kinds/types/core-v1.js';
import { CRI_LABELS, type ContainerConfig, type KeyValue } from '../../cri/api.js';
import type { EnvSourceData } from './env-sources.js';

/** The container annotations kubelet writes and reads back (`pkg/kubelet/kuberuntime/labels.go`). */
export const CONTAINER_ANNOTATIONS = {
  hash: 'io.kubernetes.container.hash',
  restartCount: 'io.kubernetes.container.restartCount',
  terminationMessagePath: 'io.kubernetes.container.terminationMessagePath',
  terminationMessagePolicy: 'io.kubernetes.container.terminationMessagePolicy',
  preStopHandler: 'io.kubernetes.container.preStopHandler',
  ports: 'io.kubernetes.container.ports',
  podDeletionGracePeriod: 'io.kubernetes.pod.deletionGracePeriod',
  podTerminationGracePeriod: 'io.kubernetes.pod.terminationGracePeriod',
} as const;

/** A container's spec could not be turned into a configuration (kubelet's `CreateContainerConfigError`). */
export class ContainerConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ContainerConfigError';
  }
}

/** FNV-1a (32 bits) of the container's JSON, in hex: a change of spec changes it (`HashContainer`). */
export function containerHash(container: Container): string {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(JSON.stringify(container))) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16);
}

/** The values a `fieldRef` can name; the rest need the API server and are refused. */
export interface PodFieldValues {
  readonly hostIP: string;
  readonly podIP: string;
}

function fieldValue(pod: Pod, path: string, values: PodFieldValues): string {
  const meta = pod.metadata ?? {};
  const m = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(path);
  if (m) return (m[1] === 'labels' ? meta.labels : meta.annotations)?.[m[2]!] ?? '';
  switch (path) {
    case 'metadata.name':
      return meta.name ?? '';
    case 'metadata.namespace':
      return meta.namespace ?? '';
    case 'metadata.uid':
      return meta.uid ?? '';
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
    case 'status.hostIPs':
      return values.hostIP;
    case 'status.podIP':
    case 'status.podIPs':
      return values.podIP;
    default:
      throw new ContainerConfigError(`unsupported fieldRef ${JSON.stringify(path)}`);
  }
}

/** `$(NAME)` references expanded from earlier variables (`expansion.Expand`): `$$` is a literal `$`, unknown names stay. */
export function expandReferences(text: string, vars: ReadonlyMap<string, string>): string {
  return text.replace(/\$\$|\$\(([^)]*)\)/g, (all: string, name: string | undefined) => {
    if (all === '$$') return '$';
    return name !== undefined && vars.has(name) ? vars.get(name)! : all;
  });
}

/** The names kubelet takes through `envFrom` under relaxed environment variable validation: printable ASCII without `=`. */
const ENV_VAR_NAME = /^[\x20-\x3c\x3e-\x7e]+$/;

function sourceValue(
  kind: 'ConfigMap' | 'Secret',
  data: ReadonlyMap<string, Readonly<Record<string, string>> | undefined> | undefined,
  namespace: string,
  ref: { name?: string; key?: string; optional?: boolean },
): string | undefined {
  const name = ref.name ?? '';
  if (!data) throw new ContainerConfigError(`${kind === 'ConfigMap' ? 'configmap' : 'secret'} ${JSON.stringify(name)} not found`);
  const object = data.get(name);
  if (!object) {
    if (ref.optional) return undefined;
    throw new ContainerConfigError(`${kind === 'ConfigMap' ? 'configmap' : 'secret'} ${JSON.stringify(name)} not found`);
  }
  const value = object[ref.key ?? ''];
  if (value === undefined) {
    if (ref.optional) return undefined;
    throw new ContainerConfigError(`couldn't find key ${ref.key ?? ''} in ${kind} ${namespace}/${name}`);
  }
  return value;
}

/**
 * The container's environment (`makeEnvironmentVariables`): first `envFrom` (each key with its
 * prefix), then `env` in order, each value expanding the variables before it; `valueFrom` reads
 * field references, ConfigMap and Secret keys. Without `sources` a ConfigMap or Secret reference
 * cannot be resolved.
 */
export function environmentOf(pod: Pod, container: Container, values: PodFieldValues, sources?: EnvSourceData): KeyValue[] {
  const vars = new Map<string, string>();
  const namespace = pod.metadata?.namespace ?? '';
  for (const from of container.envFrom ?? []) {
    const ref = from.configMapRef ?? from.secretRef;
    const kind = from.configMapRef ? 'ConfigMap' : 'Secret';
    const data = kind === 'ConfigMap' ? sources?.configMaps : sources?.secrets;
    const name = ref?.name ?? '';
    if (!data) throw new ContainerConfigError(`${kind === 'ConfigMap' ? 'configmap' : 'secret'} ${JSON.stringify(name)} not found`);
    const object = data.get(name);
    if (!object) {
      if (ref?.optional) continue;
      throw new ContainerConfigError(`${kind === 'ConfigMap' ? 'configmap' : 'secret'} ${JSON.stringify(name)} not found`);
    }
    for (const [k, v] of Object.entries(object)) {
      const key = `${from.prefix ?? ''}${k}`;
      if (ENV_VAR_NAME.test(key)) vars.set(key, v);
    }
  }
  for (const env of (container.env ?? []) as EnvVar[]) {
    let value: string | undefined;
    const from = env.valueFrom;
    if (from?.fieldRef?.fieldPath) value = fieldValue(pod, from.fieldRef.fieldPath, values);
    else if (from?.configMapKeyRef) value = sourceValue('ConfigMap', sources?.configMaps, namespace, from.configMapKeyRef);
    else if (from?.secretKeyRef) value = sourceValue('Secret', sources?.secrets, namespace, from.secretKeyRef);
    else if (from)
      throw new ContainerConfigError(`env ${JSON.stringify(env.name)}: only fieldRef, configMapKeyRef and secretKeyRef are supported by memkube's node agent`);
    else value = expandReferences(env.value ?? '', vars);
    if (value !== undefined) vars.set(env.name, value);
  }
  return [...vars].map(([key, value]) => ({ key, value }));
}

/** The labels of a container (`newContainerLabels`). */
export function containerLabels(pod: Pod, container: Container): Record<string, string> {
  return {
    [CRI_LABELS.podName]: pod.metadata?.name ?? '',
    [CRI_LABELS.podNamespace]: pod.metadata?.namespace ?? '',
    [CRI_LABELS.podUid]: pod.metadata?.uid ?? '',
    [CRI_LABELS.containerName]: container.name,
  };
}

/** The annotations of a container (`newContainerAnnotations`). */
export function containerAnnotations(pod: Pod, container: Container, restartCount: number): Record<string, string> {
  const a: Record<string, string> = {
    [CONTAINER_ANNOTATIONS.hash]: containerHash(container),
    [CONTAINER_ANNOTATIONS.restartCount]: String(restartCount),
    [CONTAINER_ANNOTATIONS.terminationMessagePath]: container.terminationMessagePath ?? '/dev/termination-log',
    [CONTAINER_ANNOTATIONS.terminationMessagePolicy]: container.terminationMessagePolicy ?? 'File',
  };
  if (pod.metadata?.deletionGracePeriodSeconds !== undefined && pod.metadata.deletionGracePeriodSeconds !== null) {
    a[CONTAINER_ANNOTATIONS.podDeletionGracePeriod] = String(pod.metadata.deletionGracePeriodSeconds);
  }
  if (pod.spec?.terminationGracePeriodSeconds !== undefined && pod.spec.terminationGracePeriodSeconds !== null) {
    a[CONTAINER_ANNOTATIONS.podTerminationGracePeriod] = String(pod.spec.terminationGracePeriodSeconds);
  }
  if (container.lifecycle?.preStop) a[CONTAINER_ANNOTATIONS.preStopHandler] = JSON.stringify(container.lifecycle.preStop);
  if (container.ports?.length) a[CONTAINER_ANNOTATIONS.ports] = JSON.stringify(container.ports);
  return a;
}

/** `BuildContainerLogsPath`: relative to the sandbox's log directory. */
export function containerLogPath(containerName: string, restartCount: number): string {
  return `${containerName}/${restartCount}.log`;
}

/** The configuration of a container at `restartCount`, running image `imageRef`. */
export function containerConfigOf(
  pod: Pod,
  container: Container,
  restartCount: number,
  imageRef: string,
  values: PodFieldValues,
  sources?: EnvSourceData,
): ContainerConfig {
  const envs = environmentOf(pod, container, values, sources);
  const vars = new Map(envs.map((e) => [e.key, e.value]));
  return {
    metadata: { name: container.name, attempt: restartCount },
    image: { image: imageRef },
    ...(container.command?.length ? { command: container.command.map((c) => expandReferences(c, vars)) } : {}),
    ...(container.args?.length ? { args: container.args.map((c) => expandReferences(c, vars)) } : {}),
    ...(container.workingDir ? { workingDir: container.workingDir } : {}),
    ...(envs.length ? { envs } : {}),
    labels: containerLabels(pod, container),
    annotations: containerAnnotations(pod, container, restartCount),
    logPath: containerLogPath(container.name, restartCount),
    ...(container.stdin ? { stdin: true } : {}),
    ...(container.stdinOnce ? { stdinOnce: true } : {}),
    ...(container.tty ? { tty: true } : {}),
    ...(container.securityContext?.privileged || container.securityContext?.readOnlyRootFilesystem
      ? {
          linux: {
            securityContext: {
              ...(container.securityContext.privileged ? { privileged: true } : {}),
              ...(container.securityContext.readOnlyRootFilesystem ? { readonlyRootfs: true } : {}),
            },
          },
        }
      : {}),
  };
}
