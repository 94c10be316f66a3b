/**
 * The Container Runtime Interface (CRI, `runtime.v1`) as TypeScript: the messages the node agent
 * sends and receives, named as in cri-api's `api.proto` with protobuf's JSON names (lowerCamelCase),
 * and the two services. Only the fields memkube uses are declared; a runtime's other fields are
 * skipped when decoding. 64-bit integers (timestamps in nanoseconds, sizes) are `bigint`.
 *
 * Both memkube's CRI client (talking to containerd, CRI-O or `memkube cri`) and memkube's own
 * runtime (`createCriRuntime`) implement {@link RuntimeService} and {@link ImageService}.
 */

/** Protocol of a port mapping (`Protocol`). */
export type CriProtocol = 'TCP' | 'UDP' | 'SCTP';

/** `NamespaceMode`: POD = 0, CONTAINER = 1, NODE = 2, TARGET = 3. */
export type NamespaceMode = 'POD' | 'CONTAINER' | 'NODE' | 'TARGET';

/** `PodSandboxState`. */
export type PodSandboxState = 'SANDBOX_READY' | 'SANDBOX_NOTREADY';

/** `ContainerState`. */
export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';

export interface VersionRequest {
  version?: string;
}
export interface VersionResponse {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

export interface PodSandboxMetadata {
  name: string;
  uid: string;
  namespace: string;
  attempt: number;
}

export interface PortMapping {
  protocol?: CriProtocol;
  containerPort?: number;
  hostPort?: number;
  hostIp?: string;
}

export interface NamespaceOption {
  network?: NamespaceMode;
  pid?: NamespaceMode;
  ipc?: NamespaceMode;
  targetId?: string;
}

export interface LinuxSandboxSecurityContext {
  namespaceOptions?: NamespaceOption;
  privileged?: boolean;
}

export interface LinuxPodSandboxConfig {
  cgroupParent?: string;
  securityContext?: LinuxSandboxSecurityContext;
  sysctls?: Record<string, string>;
}

export interface DNSConfig {
  servers?: string[];
  searches?: string[];
  options?: string[];
}

export interface PodSandboxConfig {
  metadata: PodSandboxMetadata;
  /** Empty for a host-network sandbox on runtimes without CNI. */
  hostname?: string;
  /** `<podLogsDir>/<namespace>_<name>_<uid>`: container log paths are relative to it. */
  logDirectory?: string;
  dnsConfig?: DNSConfig;
  portMappings?: PortMapping[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  linux?: LinuxPodSandboxConfig;
}

export interface RunPodSandboxRequest {
  config: PodSandboxConfig;
  runtimeHandler?: string;
}
export interface RunPodSandboxResponse {
  podSandboxId: string;
}

export interface PodSandboxIdRequest {
  podSandboxId: string;
}

export interface PodSandboxNetworkStatus {
  ip?: string;
}

export interface PodSandboxStatus {
  id: string;
  metadata: PodSandboxMetadata;
  state: PodSandboxState;
  /** Nanoseconds since the epoch. */
  createdAt: bigint;
  network?: PodSandboxNetworkStatus;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
export interface PodSandboxStatusRequest {
  podSandboxId: string;
  verbose?: boolean;
}
export interface PodSandboxStatusResponse {
  status: PodSandboxStatus;
  info?: Record<string, string>;
}

export interface PodSandboxFilter {
  id?: string;
  state?: PodSandboxState;
  labelSelector?: Record<string, string>;
}
export interface PodSandbox {
  id: string;
  metadata: PodSandboxMetadata;
  state: PodSandboxState;
  createdAt: bigint;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
export interface ListPodSandboxRequest {
  filter?: PodSandboxFilter;
}
export interface ListPodSandboxResponse {
  items: PodSandbox[];
}

export interface ContainerMetadata {
  name: string;
  attempt: number;
}

export interface ImageSpec {
  image: string;
  annotations?: Record<string, string>;
}

export interface KeyValue {
  key: string;
  value: string;
}

export interface Mount {
  containerPath: string;
  hostPath: string;
  readonly?: boolean;
}

export interface LinuxContainerSecurityContext {
  namespaceOptions?: NamespaceOption;
  privileged?: boolean;
  runAsUser?: { value: bigint };
  readonlyRootfs?: boolean;
}

export interface LinuxContainerConfig {
  securityContext?: LinuxContainerSecurityContext;
}

export interface ContainerConfig {
  metadata: ContainerMetadata;
  image: ImageSpec;
  command?: string[];
  args?: string[];
  workingDir?: string;
  envs?: KeyValue[];
  mounts?: Mount[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** Relative to the sandbox's `logDirectory`: `<container>/<restartCount>.log`. */
  logPath?: string;
  stdin?: boolean;
  stdinOnce?: boolean;
  tty?: boolean;
  linux?: LinuxContainerConfig;
}

export interface CreateContainerRequest {
  podSandboxId: string;
  config: ContainerConfig;
  sandboxConfig: PodSandboxConfig;
}
export interface CreateContainerResponse {
  containerId: string;
}

export interface ContainerIdRequest {
  containerId: string;
}
export interface StopContainerRequest {
  containerId: string;
  /** Seconds before the runtime kills the container. */
  timeout: bigint;
}

export interface ContainerFilter {
  id?: string;
  state?: ContainerState;
  podSandboxId?: string;
  labelSelector?: Record<string, string>;
}
export interface Container {
  id: string;
  podSandboxId: string;
  metadata: ContainerMetadata;
  image: ImageSpec;
  imageRef: string;
  state: ContainerState;
  createdAt: bigint;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** The image's id on the node (`Container.image_id`), what PullImage answered as `imageRef`. */
  imageId?: string;
}
export interface ListContainersRequest {
  filter?: ContainerFilter;
}
export interface ListContainersResponse {
  containers: Container[];
}

export interface ContainerStatus {
  id: string;
  metadata: ContainerMetadata;
  state: ContainerState;
  createdAt: bigint;
  startedAt: bigint;
  finishedAt: bigint;
  exitCode: number;
  image: ImageSpec;
  imageRef: string;
  reason: string;
  message: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  /** Absolute path of the container's log file on the node. */
  logPath: string;
  /** The image's id on the node (`ContainerStatus.image_id`), what PullImage answered as `imageRef`. */
  imageId?: string;
}
export interface ContainerStatusRequest {
  containerId: string;
  verbose?: boolean;
}
export interface ContainerStatusResponse {
  status: ContainerStatus;
  info?: Record<string, string>;
}

export interface RuntimeCondition {
  type: string;
  status: boolean;
  reason: string;
  message: string;
}
export interface RuntimeStatus {
  conditions: RuntimeCondition[];
}
export interface StatusRequest {
  verbose?: boolean;
}
export interface StatusResponse {
  status: RuntimeStatus;
  info?: Record<string, string>;
}

export interface CheckpointContainerRequest {
  containerId: string;
  /** Where the runtime writes the archive (a tar file). */
  location: string;
  /** Seconds; 0 is the runtime's default. */
  timeout: bigint;
}
export type CheckpointContainerResponse = Record<string, never>;

export interface ReopenContainerLogRequest {
  containerId: string;
}

export type Empty = Record<string, never>;

export interface AuthConfig {
  username?: string;
  password?: string;
  auth?: string;
  serverAddress?: string;
  identityToken?: string;
  registryToken?: string;
}

export interface Image {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: bigint;
  pinned?: boolean;
}
export interface ListImagesRequest {
  filter?: { image?: ImageSpec };
}
export interface ListImagesResponse {
  images: Image[];
}
export interface ImageStatusRequest {
  image: ImageSpec;
  verbose?: boolean;
}
export interface ImageStatusResponse {
  /** Absent when the image is not present. */
  image?: Image;
  info?: Record<string, string>;
}
export interface PullImageRequest {
  image: ImageSpec;
  auth?: AuthConfig;
  sandboxConfig?: PodSandboxConfig;
}
export interface PullImageResponse {
  imageRef: string;
}
export interface RemoveImageRequest {
  image: ImageSpec;
}

/** runtime.v1.RuntimeService: the calls memkube makes. */
export interface RuntimeService {
  version(request: VersionRequest): Promise<VersionResponse>;
  runPodSandbox(request: RunPodSandboxRequest): Promise<RunPodSandboxResponse>;
  stopPodSandbox(request: PodSandboxIdRequest): Promise<Empty>;
  removePodSandbox(request: PodSandboxIdRequest): Promise<Empty>;
  podSandboxStatus(request: PodSandboxStatusRequest): Promise<PodSandboxStatusResponse>;
  listPodSandbox(request: ListPodSandboxRequest): Promise<ListPodSandboxResponse>;
  createContainer(request: CreateContainerRequest): Promise<CreateContainerResponse>;
  startContainer(request: ContainerIdRequest): Promise<Empty>;
  stopContainer(request: StopContainerRequest): Promise<Empty>;
  removeContainer(request: ContainerIdRequest): Promise<Empty>;
  listContainers(request: ListContainersRequest): Promise<ListContainersResponse>;
  containerStatus(request: ContainerStatusRequest): Promise<ContainerStatusResponse>;
  reopenContainerLog(request: ReopenContainerLogRequest): Promise<Empty>;
  status(request: StatusRequest): Promise<StatusResponse>;
  checkpointContainer(request: CheckpointContainerRequest): Promise<CheckpointContainerResponse>;
}

/** runtime.v1.ImageService: the calls memkube makes. */
export interface ImageService {
  listImages(request: ListImagesRequest): Promise<ListImagesResponse>;
  imageStatus(request: ImageStatusRequest): Promise<ImageStatusResponse>;
  pullImage(request: PullImageRequest): Promise<PullImageResponse>;
  removeImage(request: RemoveImageRequest): Promise<Empty>;
}

/**
 * A failed CRI call: the gRPC status code (2 UNKNOWN, 5 NOT_FOUND, 12 UNIMPLEMENTED, 4
 * DEADLINE_EXCEEDED, ...) and the runtime's message, as grpc-go formats the error:
 * `rpc error: code = Unimplemented desc = <details>`.
 */
export class CriError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(`rpc error: code = ${grpcCodeName(code)} desc = ${details}`);
    this.name = 'CriError';
  }
}

const GRPC_CODE_NAMES = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
];

/** grpc-go's name of a status code (`codes.Code.String()`). */
export function grpcCodeName(code: number): string {
  return GRPC_CODE_NAMES[code] ?? `Code(${code})`;
}

/** The labels the node agent puts on sandboxes and containers (kubelet's `types` labels). */
export const CRI_LABELS = {
  podName: 'io.kubernetes.pod.name',
  podNamespace: 'io.kubernetes.pod.namespace',
  podUid: 'io.kubernetes.pod.uid',
  containerName: 'io.kubernetes.container.name',
} as const;
