/**
 * The two gRPC services' methods: the path, the message codecs and the name of the method on
 * {@link RuntimeService} / {@link ImageService}. The client and memkube's server are both built
 * from these tables, so they cannot disagree.
 */
import type { ImageService, RuntimeService } from '../api.js';
import { CriMessages as M } from './messages.js';
import type { MessageCodec } from './schema.js';

/** One unary method. */
export interface CriMethod {
  /** `runtime.v1.RuntimeService` or `runtime.v1.ImageService`. */
  readonly service: string;
  /** The protobuf method name: `Version`. */
  readonly method: string;
  /** The TypeScript method name: `version`. */
  readonly call: keyof RuntimeService | keyof ImageService;
  readonly request: MessageCodec<never>;
  readonly response: MessageCodec<never>;
}

const RUNTIME = 'runtime.v1.RuntimeService';
const IMAGE = 'runtime.v1.ImageService';

function m<Req, Res>(service: string, method: string, call: CriMethod['call'], request: MessageCodec<Req>, response: MessageCodec<Res>): CriMethod {
  return { service, method, call, request: request as MessageCodec<never>, response: response as MessageCodec<never> };
}

/** Every method memkube's client calls and memkube's runtime serves. */
export const CRI_METHODS: readonly CriMethod[] = [
  m(RUNTIME, 'Version', 'version', M.VersionRequest, M.VersionResponse),
  m(RUNTIME, 'RunPodSandbox', 'runPodSandbox', M.RunPodSandboxRequest, M.RunPodSandboxResponse),
  m(RUNTIME, 'StopPodSandbox', 'stopPodSandbox', M.PodSandboxIdRequest, M.Empty),
  m(RUNTIME, 'RemovePodSandbox', 'removePodSandbox', M.PodSandboxIdRequest, M.Empty),
  m(RUNTIME, 'PodSandboxStatus', 'podSandboxStatus', M.PodSandboxStatusRequest, M.PodSandboxStatusResponse),
  m(RUNTIME, 'ListPodSandbox', 'listPodSandbox', M.ListPodSandboxRequest, M.ListPodSandboxResponse),
  m(RUNTIME, 'CreateContainer', 'createContainer', M.CreateContainerRequest, M.CreateContainerResponse),
  m(RUNTIME, 'StartContainer', 'startContainer', M.ContainerIdRequest, M.Empty),
  m(RUNTIME, 'StopContainer', 'stopContainer', M.StopContainerRequest, M.Empty),
  m(RUNTIME, 'RemoveContainer', 'removeContainer', M.ContainerIdRequest, M.Empty),
  m(RUNTIME, 'ListContainers', 'listContainers', M.ListContainersRequest, M.ListContainersResponse),
  m(RUNTIME, 'ContainerStatus', 'containerStatus', M.ContainerStatusRequest, M.ContainerStatusResponse),
  m(RUNTIME, 'ReopenContainerLog', 'reopenContainerLog', M.ReopenContainerLogRequest, M.Empty),
  m(RUNTIME, 'Status', 'status', M.StatusRequest, M.StatusResponse),
  m(RUNTIME, 'CheckpointContainer', 'checkpointContainer', M.CheckpointContainerRequest, M.CheckpointContainerResponse),
  m(IMAGE, 'ListImages', 'listImages', M.ListImagesRequest, M.ListImagesResponse),
  m(IMAGE, 'ImageStatus', 'imageStatus', M.ImageStatusRequest, M.ImageStatusResponse),
  m(IMAGE, 'PullImage', 'pullImage', M.PullImageRequest, M.PullImageResponse),
  m(IMAGE, 'RemoveImage', 'removeImage', M.RemoveImageRequest, M.Empty),
];

/** `/runtime.v1.RuntimeService/Version`. */
export const methodPath = (method: CriMethod): string => `/${method.service}/${method.method}`;
