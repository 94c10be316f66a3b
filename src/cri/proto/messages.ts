/**
 * runtime.v1's messages as tables, with the field numbers of cri-api's `api.proto`
 * (k8s.io/cri-api/pkg/apis/runtime/v1). Only the fields of the TypeScript contract (../api.ts) are
 * named; every other field a runtime sends is skipped on decode.
 */
import type * as api from '../api.js';
import { codec, type EnumDef, type FieldDef, type MessageDef } from './schema.js';

const PROTOCOL: EnumDef = { names: ['TCP', 'UDP', 'SCTP'] };
const NAMESPACE_MODE: EnumDef = { names: ['POD', 'CONTAINER', 'NODE', 'TARGET'] };
const SANDBOX_STATE: EnumDef = { names: ['SANDBOX_READY', 'SANDBOX_NOTREADY'], unknown: 'SANDBOX_NOTREADY' };
const CONTAINER_STATE: EnumDef = {
  names: ['CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED', 'CONTAINER_UNKNOWN'],
  unknown: 'CONTAINER_UNKNOWN',
};

const str = (no: number, name: string, optional = true): FieldDef => ({ no, name, kind: 'string', optional });
const strs = (no: number, name: string, optional = true): FieldDef => ({ no, name, kind: 'string', repeated: true, optional });
const bool = (no: number, name: string, optional = true): FieldDef => ({ no, name, kind: 'bool', optional });
const int32 = (no: number, name: string, optional = true): FieldDef => ({ no, name, kind: 'int32', optional });
const uint32 = (no: number, name: string, optional = true): FieldDef => ({ no, name, kind: 'uint32', optional });
const int64 = (no: number, name: string, optional = true): FieldDef => ({ no, name, kind: 'int64', optional });
const uint64 = (no: number, name: string, optional = true): FieldDef => ({ no, name, kind: 'uint64', optional });
const map = (no: number, name: string): FieldDef => ({ no, name, kind: 'map', optional: true });
const msg = (no: number, name: string, message: () => MessageDef, optional = true): FieldDef => ({ no, name, kind: 'message', message, optional });
const msgs = (no: number, name: string, message: () => MessageDef, optional = true): FieldDef => ({
  no,
  name,
  kind: 'message',
  message,
  repeated: true,
  optional,
});
const enumField = (no: number, name: string, def: EnumDef, optional = true, wrapped = false): FieldDef => ({
  no,
  name,
  kind: 'enum',
  enum: def,
  optional,
  wrapped,
});
const message = (name: string, fields: FieldDef[]): MessageDef => ({ name, fields });
const REQUIRED = false;

export const VersionRequest = message('VersionRequest', [str(1, 'version')]);
export const VersionResponse = message('VersionResponse', [
  str(1, 'version', REQUIRED),
  str(2, 'runtimeName', REQUIRED),
  str(3, 'runtimeVersion', REQUIRED),
  str(4, 'runtimeApiVersion', REQUIRED),
]);

export const PodSandboxMetadata = message('PodSandboxMetadata', [
  str(1, 'name', REQUIRED),
  str(2, 'uid', REQUIRED),
  str(3, 'namespace', REQUIRED),
  uint32(4, 'attempt', REQUIRED),
]);
export const DNSConfig = message('DNSConfig', [strs(1, 'servers'), strs(2, 'searches'), strs(3, 'options')]);
export const PortMapping = message('PortMapping', [enumField(1, 'protocol', PROTOCOL), int32(2, 'containerPort'), int32(3, 'hostPort'), str(4, 'hostIp')]);
export const NamespaceOption = message('NamespaceOption', [
  enumField(1, 'network', NAMESPACE_MODE),
  enumField(2, 'pid', NAMESPACE_MODE),
  enumField(3, 'ipc', NAMESPACE_MODE),
  str(4, 'targetId'),
]);
export const Int64Value = message('Int64Value', [int64(1, 'value', REQUIRED)]);
export const LinuxSandboxSecurityContext = message('LinuxSandboxSecurityContext', [msg(1, 'namespaceOptions', () => NamespaceOption), bool(6, 'privileged')]);
export const LinuxPodSandboxConfig = message('LinuxPodSandboxConfig', [
  str(1, 'cgroupParent'),
  msg(2, 'securityContext', () => LinuxSandboxSecurityContext),
  map(3, 'sysctls'),
]);
export const PodSandboxConfig = message('PodSandboxConfig', [
  msg(1, 'metadata', () => PodSandboxMetadata, REQUIRED),
  str(2, 'hostname'),
  str(3, 'logDirectory'),
  msg(4, 'dnsConfig', () => DNSConfig),
  msgs(5, 'portMappings', () => PortMapping),
  map(6, 'labels'),
  map(7, 'annotations'),
  msg(8, 'linux', () => LinuxPodSandboxConfig),
]);
export const RunPodSandboxRequest = message('RunPodSandboxRequest', [msg(1, 'config', () => PodSandboxConfig, REQUIRED), str(2, 'runtimeHandler')]);
export const RunPodSandboxResponse = message('RunPodSandboxResponse', [str(1, 'podSandboxId', REQUIRED)]);
/** StopPodSandboxRequest and RemovePodSandboxRequest. */
export const PodSandboxIdRequest = message('PodSandboxIdRequest', [str(1, 'podSandboxId', REQUIRED)]);
export const PodSandboxNetworkStatus = message('PodSandboxNetworkStatus', [str(1, 'ip')]);
export const PodSandboxStatus = message('PodSandboxStatus', [
  str(1, 'id', REQUIRED),
  msg(2, 'metadata', () => PodSandboxMetadata, REQUIRED),
  enumField(3, 'state', SANDBOX_STATE, REQUIRED),
  int64(4, 'createdAt', REQUIRED),
  msg(5, 'network', () => PodSandboxNetworkStatus),
  map(7, 'labels'),
  map(8, 'annotations'),
]);
export const PodSandboxStatusRequest = message('PodSandboxStatusRequest', [str(1, 'podSandboxId', REQUIRED), bool(2, 'verbose')]);
export const PodSandboxStatusResponse = message('PodSandboxStatusResponse', [msg(1, 'status', () => PodSandboxStatus, REQUIRED), map(2, 'info')]);
export const PodSandboxFilter = message('PodSandboxFilter', [
  str(1, 'id'),
  // PodSandboxStateValue { state = 1 }: the wrapper tells "any state" from SANDBOX_READY (0).
  enumField(2, 'state', SANDBOX_STATE, true, true),
  map(3, 'labelSelector'),
]);
export const ListPodSandboxRequest = message('ListPodSandboxRequest', [msg(1, 'filter', () => PodSandboxFilter)]);
export const PodSandbox = message('PodSandbox', [
  str(1, 'id', REQUIRED),
  msg(2, 'metadata', () => PodSandboxMetadata, REQUIRED),
  enumField(3, 'state', SANDBOX_STATE, REQUIRED),
  int64(4, 'createdAt', REQUIRED),
  map(5, 'labels'),
  map(6, 'annotations'),
]);
export const ListPodSandboxResponse = message('ListPodSandboxResponse', [msgs(1, 'items', () => PodSandbox, REQUIRED)]);

export const ContainerMetadata = message('ContainerMetadata', [str(1, 'name', REQUIRED), uint32(2, 'attempt', REQUIRED)]);
export const ImageSpec = message('ImageSpec', [str(1, 'image', REQUIRED), map(2, 'annotations')]);
export const KeyValue = message('KeyValue', [str(1, 'key', REQUIRED), str(2, 'value', REQUIRED)]);
export const Mount = message('Mount', [str(1, 'containerPath', REQUIRED), str(2, 'hostPath', REQUIRED), bool(3, 'readonly')]);
export const LinuxContainerSecurityContext = message('LinuxContainerSecurityContext', [
  bool(2, 'privileged'),
  msg(3, 'namespaceOptions', () => NamespaceOption),
  msg(5, 'runAsUser', () => Int64Value),
  bool(7, 'readonlyRootfs'),
]);
export const LinuxContainerConfig = message('LinuxContainerConfig', [msg(2, 'securityContext', () => LinuxContainerSecurityContext)]);
export const ContainerConfig = message('ContainerConfig', [
  msg(1, 'metadata', () => ContainerMetadata, REQUIRED),
  msg(2, 'image', () => ImageSpec, REQUIRED),
  strs(3, 'command'),
  strs(4, 'args'),
  str(5, 'workingDir'),
  msgs(6, 'envs', () => KeyValue),
  msgs(7, 'mounts', () => Mount),
  map(9, 'labels'),
  map(10, 'annotations'),
  str(11, 'logPath'),
  bool(12, 'stdin'),
  bool(13, 'stdinOnce'),
  bool(14, 'tty'),
  msg(15, 'linux', () => LinuxContainerConfig),
]);
export const CreateContainerRequest = message('CreateContainerRequest', [
  str(1, 'podSandboxId', REQUIRED),
  msg(2, 'config', () => ContainerConfig, REQUIRED),
  msg(3, 'sandboxConfig', () => PodSandboxConfig, REQUIRED),
]);
export const CreateContainerResponse = message('CreateContainerResponse', [str(1, 'containerId', REQUIRED)]);
/** StartContainerRequest and RemoveContainerRequest. */
export const ContainerIdRequest = message('ContainerIdRequest', [str(1, 'containerId', REQUIRED)]);
export const StopContainerRequest = message('StopContainerRequest', [str(1, 'containerId', REQUIRED), int64(2, 'timeout', REQUIRED)]);
export const ContainerFilter = message('ContainerFilter', [
  str(1, 'id'),
  // ContainerStateValue { state = 1 }.
  enumField(2, 'state', CONTAINER_STATE, true, true),
  str(3, 'podSandboxId'),
  map(4, 'labelSelector'),
]);
export const ListContainersRequest = message('ListContainersRequest', [msg(1, 'filter', () => ContainerFilter)]);
export const Container = message('Container', [
  str(1, 'id', REQUIRED),
  str(2, 'podSandboxId', REQUIRED),
  msg(3, 'metadata', () => ContainerMetadata, REQUIRED),
  msg(4, 'image', () => ImageSpec, REQUIRED),
  str(5, 'imageRef', REQUIRED),
  enumField(6, 'state', CONTAINER_STATE, REQUIRED),
  int64(7, 'createdAt', REQUIRED),
  map(8, 'labels'),
  map(9, 'annotations'),
  str(10, 'imageId'),
]);
export const ListContainersResponse = message('ListContainersResponse', [msgs(1, 'containers', () => Container, REQUIRED)]);
export const ContainerStatus = message('ContainerStatus', [
  str(1, 'id', REQUIRED),
  msg(2, 'metadata', () => ContainerMetadata, REQUIRED),
  enumField(3, 'state', CONTAINER_STATE, REQUIRED),
  int64(4, 'createdAt', REQUIRED),
  int64(5, 'startedAt', REQUIRED),
  int64(6, 'finishedAt', REQUIRED),
  int32(7, 'exitCode', REQUIRED),
  msg(8, 'image', () => ImageSpec, REQUIRED),
  str(9, 'imageRef', REQUIRED),
  str(10, 'reason', REQUIRED),
  str(11, 'message', REQUIRED),
  map(12, 'labels'),
  map(13, 'annotations'),
  str(15, 'logPath', REQUIRED),
  str(17, 'imageId'),
]);
export const ContainerStatusRequest = message('ContainerStatusRequest', [str(1, 'containerId', REQUIRED), bool(2, 'verbose')]);
export const ContainerStatusResponse = message('ContainerStatusResponse', [msg(1, 'status', () => ContainerStatus, REQUIRED), map(2, 'info')]);

export const RuntimeCondition = message('RuntimeCondition', [
  str(1, 'type', REQUIRED),
  bool(2, 'status', REQUIRED),
  str(3, 'reason', REQUIRED),
  str(4, 'message', REQUIRED),
]);
export const RuntimeStatus = message('RuntimeStatus', [msgs(1, 'conditions', () => RuntimeCondition, REQUIRED)]);
export const StatusRequest = message('StatusRequest', [bool(1, 'verbose')]);
export const StatusResponse = message('StatusResponse', [msg(1, 'status', () => RuntimeStatus, REQUIRED), map(2, 'info')]);

export const CheckpointContainerRequest = message('CheckpointContainerRequest', [
  str(1, 'containerId', REQUIRED),
  str(2, 'location', REQUIRED),
  int64(3, 'timeout', REQUIRED),
]);
export const ReopenContainerLogRequest = message('ReopenContainerLogRequest', [str(1, 'containerId', REQUIRED)]);
/** Every empty response (StopPodSandboxResponse, CheckpointContainerResponse, ...). */
export const Empty = message('Empty', []);

export const AuthConfig = message('AuthConfig', [
  str(1, 'username'),
  str(2, 'password'),
  str(3, 'auth'),
  str(4, 'serverAddress'),
  str(5, 'identityToken'),
  str(6, 'registryToken'),
]);
export const Image = message('Image', [
  str(1, 'id', REQUIRED),
  strs(2, 'repoTags', REQUIRED),
  strs(3, 'repoDigests', REQUIRED),
  uint64(4, 'size', REQUIRED),
  bool(8, 'pinned'),
]);
export const ImageFilter = message('ImageFilter', [msg(1, 'image', () => ImageSpec)]);
export const ListImagesRequest = message('ListImagesRequest', [msg(1, 'filter', () => ImageFilter)]);
export const ListImagesResponse = message('ListImagesResponse', [msgs(1, 'images', () => Image, REQUIRED)]);
export const ImageStatusRequest = message('ImageStatusRequest', [msg(1, 'image', () => ImageSpec, REQUIRED), bool(2, 'verbose')]);
export const ImageStatusResponse = message('ImageStatusResponse', [msg(1, 'image', () => Image), map(2, 'info')]);
export const PullImageRequest = message('PullImageRequest', [
  msg(1, 'image', () => ImageSpec, REQUIRED),
  msg(2, 'auth', () => AuthConfig),
  msg(3, 'sandboxConfig', () => PodSandboxConfig),
]);
export const PullImageResponse = message('PullImageResponse', [str(1, 'imageRef', REQUIRED)]);
export const RemoveImageRequest = message('RemoveImageRequest', [msg(1, 'image', () => ImageSpec, REQUIRED)]);

/** Typed encoders and decoders of every message of the contract. */
export const CriMessages = {
  VersionRequest: codec<api.VersionRequest>(VersionRequest),
  VersionResponse: codec<api.VersionResponse>(VersionResponse),
  RunPodSandboxRequest: codec<api.RunPodSandboxRequest>(RunPodSandboxRequest),
  RunPodSandboxResponse: codec<api.RunPodSandboxResponse>(RunPodSandboxResponse),
  PodSandboxIdRequest: codec<api.PodSandboxIdRequest>(PodSandboxIdRequest),
  PodSandboxStatusRequest: codec<api.PodSandboxStatusRequest>(PodSandboxStatusRequest),
  PodSandboxStatusResponse: codec<api.PodSandboxStatusResponse>(PodSandboxStatusResponse),
  ListPodSandboxRequest: codec<api.ListPodSandboxRequest>(ListPodSandboxRequest),
  ListPodSandboxResponse: codec<api.ListPodSandboxResponse>(ListPodSandboxResponse),
  PodSandboxConfig: codec<api.PodSandboxConfig>(PodSandboxConfig),
  ContainerConfig: codec<api.ContainerConfig>(ContainerConfig),
  CreateContainerRequest: codec<api.CreateContainerRequest>(CreateContainerRequest),
  CreateContainerResponse: codec<api.CreateContainerResponse>(CreateContainerResponse),
  ContainerIdRequest: codec<api.ContainerIdRequest>(ContainerIdRequest),
  StopContainerRequest: codec<api.StopContainerRequest>(StopContainerRequest),
  ListContainersRequest: codec<api.ListContainersRequest>(ListContainersRequest),
  ListContainersResponse: codec<api.ListContainersResponse>(ListContainersResponse),
  ContainerStatusRequest: codec<api.ContainerStatusRequest>(ContainerStatusRequest),
  ContainerStatusResponse: codec<api.ContainerStatusResponse>(ContainerStatusResponse),
  ReopenContainerLogRequest: codec<api.ReopenContainerLogRequest>(ReopenContainerLogRequest),
  StatusRequest: codec<api.StatusRequest>(StatusRequest),
  StatusResponse: codec<api.StatusResponse>(StatusResponse),
  CheckpointContainerRequest: codec<api.CheckpointContainerRequest>(CheckpointContainerRequest),
  CheckpointContainerResponse: codec<api.CheckpointContainerResponse>(Empty),
  Empty: codec<api.Empty>(Empty),
  ListImagesRequest: codec<api.ListImagesRequest>(ListImagesRequest),
  ListImagesResponse: codec<api.ListImagesResponse>(ListImagesResponse),
  ImageStatusRequest: codec<api.ImageStatusRequest>(ImageStatusRequest),
  ImageStatusResponse: codec<api.ImageStatusResponse>(ImageStatusResponse),
  PullImageRequest: codec<api.PullImageRequest>(PullImageRequest),
  PullImageResponse: codec<api.PullImageResponse>(PullImageResponse),
  RemoveImageRequest: codec<api.RemoveImageRequest>(RemoveImageRequest),
} as const;
