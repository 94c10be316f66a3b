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

/** `VersionRequest`: the CRI version the caller speaks. */
export interface VersionRequest {
  version?: string;
}
/** `VersionResponse`: the runtime's name and version and the CRI version it serves. */
export interface VersionResponse {
  version: string;
  runtimeName: string;
  runtimeVersion: string;
  runtimeApiVersion: string;
}

/** `PodSandboxMetadata`: the pod a sandbox is for (name, UID, namespace) and the attempt. */
export interface PodSandboxMetadata {
  name: string;
  uid: string;
  namespace: string;
  attempt: number;
}

/** `PortMapping`: a container port published on the host. */
export interface PortMapping {
  protocol?: CriProtocol;
  containerPort?: number;
  hostPort?: number;
  hostIp?: string;
}

/** `NamespaceOption`: which network, PID and IPC namespaces a sandbox or container uses. */
export interface NamespaceOption {
  network?: NamespaceMode;
  pid?: NamespaceMode;
  ipc?: NamespaceMode;
  targetId?: string;
}

/** `LinuxSandboxSecurityContext`: a sandbox's namespaces and whether it is privileged. */
export interface LinuxSandboxSecurityContext {
  namespaceOptions?: NamespaceOption;
  privileged?: boolean;
}

/** `LinuxPodSandboxConfig`: a sandbox's cgroup parent, security context and sysctls. */
export interface LinuxPodSandboxConfig {
  cgroupParent?: string;
  securityContext?: LinuxSandboxSecurityContext;
  sysctls?: Record<string, string>;
}

/** `DNSConfig`: the resolv.conf of a sandbox: servers, search domains and options. */
export interface DNSConfig {
  servers?: string[];
  searches?: string[];
  options?: string[];
}

/** `PodSandboxConfig`: everything a runtime needs to create a pod's sandbox. */
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

/** `RunPodSandboxRequest`: the sandbox's configuration and the runtime handler to run it with. */
export interface RunPodSandboxRequest {
  config: PodSandboxConfig;
  runtimeHandler?: string;
}
/** `RunPodSandboxResponse`: the new sandbox's ID. */
export interface RunPodSandboxResponse {
  podSandboxId: string;
}

/** The request of `StopPodSandbox` and `RemovePodSandbox`: the sandbox's ID. */
export interface PodSandboxIdRequest {
  podSandboxId: string;
}

/** `PodSandboxNetworkStatus`: the sandbox's IP address. */
export interface PodSandboxNetworkStatus {
  ip?: string;
}

/** `PodSandboxStatus`: a sandbox's state, metadata, creation time, network, labels and annotations. */
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
/** `PodSandboxStatusRequest`: the sandbox, and whether to return verbose `info`. */
export interface PodSandboxStatusRequest {
  podSandboxId: string;
  verbose?: boolean;
}
/** `PodSandboxStatusResponse`: the sandbox's status and, when verbose, runtime-specific `info`. */
export interface PodSandboxStatusResponse {
  status: PodSandboxStatus;
  info?: Record<string, string>;
}

/** `PodSandboxFilter`: sandboxes by ID, state and labels; every field set must match. */
export interface PodSandboxFilter {
  id?: string;
  state?: PodSandboxState;
  labelSelector?: Record<string, string>;
}
/** `PodSandbox`: one sandbox of a `ListPodSandbox` answer. */
export interface PodSandbox {
  id: string;
  metadata: PodSandboxMetadata;
  state: PodSandboxState;
  createdAt: bigint;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
/** `ListPodSandboxRequest`: the filter of the sandboxes to list. */
export interface ListPodSandboxRequest {
  filter?: PodSandboxFilter;
}
/** `ListPodSandboxResponse`: the sandboxes that match. */
export interface ListPodSandboxResponse {
  items: PodSandbox[];
}

/** `ContainerMetadata`: a container's name and attempt. */
export interface ContainerMetadata {
  name: string;
  attempt: number;
}

/** `ImageSpec`: an image reference and its annotations. */
export interface ImageSpec {
  image: string;
  annotations?: Record<string, string>;
}

/** `KeyValue`: one environment variable of a container. */
export interface KeyValue {
  key: string;
  value: string;
}

/** `Mount`: a host path mounted into a container. */
export interface Mount {
  containerPath: string;
  hostPath: string;
  readonly?: boolean;
}

/** `LinuxContainerSecurityContext`: a container's namespaces, privilege, user and read-only root filesystem. */
export interface LinuxContainerSecurityContext {
  namespaceOptions?: NamespaceOption;
  privileged?: boolean;
  runAsUser?: { value: bigint };
  readonlyRootfs?: boolean;
}

/** `LinuxContainerConfig`: a container's Linux settings. */
export interface LinuxContainerConfig {
  securityContext?: LinuxContainerSecurityContext;
}

/** `ContainerConfig`: everything a runtime needs to create a container. */
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

/** `CreateContainerRequest`: the sandbox to create the container in, its configuration and the sandbox's. */
export interface CreateContainerRequest {
  podSandboxId: string;
  config: ContainerConfig;
  sandboxConfig: PodSandboxConfig;
}
/** `CreateContainerResponse`: the new container's ID. */
export interface CreateContainerResponse {
  containerId: string;
}

/** The request of `StartContainer` and `RemoveContainer`: the container's ID. */
export interface ContainerIdRequest {
  containerId: string;
}
/** `StopContainerRequest`: the container, and the seconds to wait before it is killed. */
export interface StopContainerRequest {
  containerId: string;
  /** Seconds before the runtime kills the container. */
  timeout: bigint;
}

/** `ContainerFilter`: containers by ID, state, sandbox and labels; every field set must match. */
export interface ContainerFilter {
  id?: string;
  state?: ContainerState;
  podSandboxId?: string;
  labelSelector?: Record<string, string>;
}
/** `Container`: one container of a `ListContainers` answer. */
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
/** `ListContainersRequest`: the filter of the containers to list. */
export interface ListContainersRequest {
  filter?: ContainerFilter;
}
/** `ListContainersResponse`: the containers that match. */
export interface ListContainersResponse {
  containers: Container[];
}

/** `ContainerStatus`: a container's state, times, exit code, image, reason and message. */
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
/** `ContainerStatusRequest`: the container, and whether to return verbose `info`. */
export interface ContainerStatusRequest {
  containerId: string;
  verbose?: boolean;
}
/** `ContainerStatusResponse`: the container's status and, when verbose, runtime-specific `info`. */
export interface ContainerStatusResponse {
  status: ContainerStatus;
  info?: Record<string, string>;
}

/** `RuntimeCondition`: one condition of the runtime (`RuntimeReady`, `NetworkReady`). */
export interface RuntimeCondition {
  type: string;
  status: boolean;
  reason: string;
  message: string;
}
/** `RuntimeStatus`: the runtime's conditions. */
export interface RuntimeStatus {
  conditions: RuntimeCondition[];
}
/** `StatusRequest`: whether to return verbose `info`. */
export interface StatusRequest {
  verbose?: boolean;
}
/** `StatusResponse`: the runtime's status and, when verbose, runtime-specific `info`. */
export interface StatusResponse {
  status: RuntimeStatus;
  info?: Record<string, string>;
}

/** `CheckpointContainerRequest`: the container, the archive to write its checkpoint to, and the timeout. */
export interface CheckpointContainerRequest {
  containerId: string;
  /** Where the runtime writes the archive (a tar file). */
  location: string;
  /** Seconds; 0 is the runtime's default. */
  timeout: bigint;
}
/** `CheckpointContainerResponse`: empty. */
export type CheckpointContainerResponse = Record<string, never>;

/** `ReopenContainerLogRequest`: the container whose log file the runtime reopens (after log rotation). */
export interface ReopenContainerLogRequest {
  containerId: string;
}

/** An empty message: the answer of the RPCs that return nothing. */
export type Empty = Record<string, never>;

/** `AuthConfig`: the registry credentials of a pull. */
export interface AuthConfig {
  username?: string;
  password?: string;
  auth?: string;
  serverAddress?: string;
  identityToken?: string;
  registryToken?: string;
}

/** `Image`: an image the runtime holds: ID, tags, digests, size and whether it is pinned. */
export interface Image {
  id: string;
  repoTags: string[];
  repoDigests: string[];
  size: bigint;
  pinned?: boolean;
}
/** `ListImagesRequest`: optionally, the image to list. */
export interface ListImagesRequest {
  filter?: { image?: ImageSpec };
}
/** `ListImagesResponse`: the images. */
export interface ListImagesResponse {
  images: Image[];
}
/** `ImageStatusRequest`: the image, and whether to return verbose `info`. */
export interface ImageStatusRequest {
  image: ImageSpec;
  verbose?: boolean;
}
/** `ImageStatusResponse`: the image, absent when the runtime does not have it. */
export interface ImageStatusResponse {
  /** Absent when the image is not present. */
  image?: Image;
  info?: Record<string, string>;
}
/** `PullImageRequest`: the image, the registry credentials and the sandbox it is pulled for. */
export interface PullImageRequest {
  image: ImageSpec;
  auth?: AuthConfig;
  sandboxConfig?: PodSandboxConfig;
}
/** `PullImageResponse`: the reference of the pulled image. */
export interface PullImageResponse {
  imageRef: string;
}
/** `RemoveImageRequest`: the image to remove. */
export interface RemoveImageRequest {
  image: ImageSpec;
}

/** runtime.v1.RuntimeService: the calls memkube makes. */
export interface RuntimeService {
  /** `Version`: the runtime's name and version. */
  version(request: VersionRequest): Promise<VersionResponse>;
  /** `RunPodSandbox`: creates and starts a pod's sandbox. */
  runPodSandbox(request: RunPodSandboxRequest): Promise<RunPodSandboxResponse>;
  /** `StopPodSandbox`: stops a sandbox and its containers. */
  stopPodSandbox(request: PodSandboxIdRequest): Promise<Empty>;
  /** `RemovePodSandbox`: removes a sandbox and its containers. */
  removePodSandbox(request: PodSandboxIdRequest): Promise<Empty>;
  /** `PodSandboxStatus`: the status of a sandbox. */
  podSandboxStatus(request: PodSandboxStatusRequest): Promise<PodSandboxStatusResponse>;
  /** `ListPodSandbox`: the sandboxes that match a filter. */
  listPodSandbox(request: ListPodSandboxRequest): Promise<ListPodSandboxResponse>;
  /** `CreateContainer`: creates a container in a sandbox. */
  createContainer(request: CreateContainerRequest): Promise<CreateContainerResponse>;
  /** `StartContainer`: starts a created container. */
  startContainer(request: ContainerIdRequest): Promise<Empty>;
  /** `StopContainer`: stops a running container, killing it after the timeout. */
  stopContainer(request: StopContainerRequest): Promise<Empty>;
  /** `RemoveContainer`: removes a container. */
  removeContainer(request: ContainerIdRequest): Promise<Empty>;
  /** `ListContainers`: the containers that match a filter. */
  listContainers(request: ListContainersRequest): Promise<ListContainersResponse>;
  /** `ContainerStatus`: the status of a container. */
  containerStatus(request: ContainerStatusRequest): Promise<ContainerStatusResponse>;
  /** `ReopenContainerLog`: makes the runtime reopen a container's log file. */
  reopenContainerLog(request: ReopenContainerLogRequest): Promise<Empty>;
  /** `Status`: the runtime's conditions. */
  status(request: StatusRequest): Promise<StatusResponse>;
  /** `CheckpointContainer`: writes a checkpoint archive of a container. */
  checkpointContainer(request: CheckpointContainerRequest): Promise<CheckpointContainerResponse>;
}

/** runtime.v1.ImageService: the calls memkube makes. */
export interface ImageService {
  /** `ListImages`: the images the runtime holds. */
  listImages(request: ListImagesRequest): Promise<ListImagesResponse>;
  /** `ImageStatus`: one image, if the runtime holds it. */
  imageStatus(request: ImageStatusRequest): Promise<ImageStatusResponse>;
  /** `PullImage`: pulls an image with the given credentials. */
  pullImage(request: PullImageRequest): Promise<PullImageResponse>;
  /** `RemoveImage`: removes an image. */
  removeImage(request: RemoveImageRequest): Promise<Empty>;
}

/**
 * A failed CRI call: the gRPC status code (2 UNKNOWN, 5 NOT_FOUND, 12 UNIMPLEMENTED, 4
 * DEADLINE_EXCEEDED, ...) and the runtime's message, as grpc-go formats the error:
 * `rpc error: code = Unimplemented desc = <details>`.
 * @category CRI runtime
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
