/**
 * memkube: a Kubernetes-compatible API server that lives in memory.
 *
 * @packageDocumentation
 * @module memkube
 */
import { EncryptionConfigurationSchema as encryptionConfigurationSchema } from './config/encryption/index.js';
import { ObjectMeta } from './kinds/types/meta-v1.js';

export {
  createCluster,
  featureGateEnabled,
  FEATURE_GATES_OFF_BY_DEFAULT,
  INITIAL_NAMESPACES,
  type Cluster,
  type ClusterOptions,
  type LoadOptions,
} from './cluster.js';
export { AdmissionConfigError, type AdmissionConfig } from './admission/chain.js';
export { CombinedClock, formatTime, formatMicroTime, type Clock, type ClockListener, type ManualClock } from './clock.js';
export {
  ApiError,
  isApiError,
  type Status,
  type StatusCause,
  type StatusDetails,
  type StatusReason,
  type GroupKind,
  type GroupResource,
} from './machinery/errors.js';
export { fieldError, fieldErrorMessage, aggregateMessage, type FieldError, type FieldErrorType } from './machinery/field-errors.js';
export { isStreamedBody } from './machinery/request.js';
export type {
  ApiRequest,
  ApiResponse,
  ConnectRequest,
  StreamedBody,
  DeleteOptions,
  FieldValidation,
  GetOptions,
  GroupVersionResource,
  TypedResourceTarget,
  ListOptions,
  PatchType,
  Preconditions,
  UserInfo,
  Verb,
  WatchEvent,
  WatchEventType,
  WatchStream,
  WriteOptions,
} from './machinery/request.js';
export type { DeletedStatus } from './api/verbs/delete.js';
export {
  Client,
  ResourceClient,
  ADMIN_USER,
  type ClientDeleteCollectionOptions,
  type ClientDeleteOptions,
  type ClientGetOptions,
  type ClientListOptions,
  type ClientApplyOptions,
  type ClientPatchOptions,
  type ClientWriteOptions,
  type ClientWatchOptions,
  type CallOptions,
  type DryRunOption,
  type List,
  type RequestHandler,
  type ResourceResolver,
  type ResourceTarget,
  type WarningHandler,
  type BuiltinResourceHelpers,
  type ClientContext,
  type ResourceClientContext,
} from './client/client.js';
export { waitFor, WaitTimeoutError, type WaitableResource, type WaitForOptions, type WaitSelector } from './client/wait-for.js';
export type {
  ApplyConfiguration,
  DeepPartial,
  JsonPatch,
  JsonPatchOperation,
  MergePatch,
  PatchBody,
  StrategicMergeDirectives,
  StrategicMergePatch,
} from './client/patch-types.js';
export {
  defineKind,
  type DeleteStrategy,
  type GenerationPolicy,
  type Bivariant,
  type ImmutableField,
  type KindContext,
  type KindDeclaration,
  type KindDefinition,
  type KindStrategy,
  type PrinterColumn,
  type KindVersion,
  type KubeObject,
  type ObjectMetaLike,
  type ObjectOf,
  type ScaleSubresource,
  type VersionConversion,
  type ConnectContext,
  type ConnectMethod,
  type ConnectSubresource,
} from './schema/define-kind.js';
export { readStreamedBody, streamedBody, type StreamedBodySource } from './machinery/streamed-body.js';
export type { NodeAgentRequest, NodeAgentResponse, NodeConnections, NodeLocation } from './machinery/node-connections.js';
/** The API server's client of node agents (`pods/log`, `nodes/proxy`; the `--kubelet-*` flags). */
export { createKubeletClient, type KubeletClientOptions } from './kubelet-client/index.js';
export { KindRegistry, type AddKindOptions, type ResolvedKind } from './schema/registry.js';
export type { StructuralNode, StructNode, MapNode, ArrayNode, ScalarNode, IntOrStringNode, AnyNode, ListAndPatchFacts } from './schema/structural.js';
export type { NameValidator } from './schema/validation/names.js';
export { MemoryStorage, type MemoryStorageOptions } from './storage/memory.js';
export {
  ClusterSnapshot,
  loadSnapshot,
  SnapshotFormatError,
  SNAPSHOT_API_VERSION,
  SNAPSHOT_KIND,
  type SnapshotDocument,
  type SnapshotEntry,
} from './storage/snapshot.js';
export { EncryptingStorage, type EncryptingStorageOptions } from './storage/encrypting.js';
export type { EncryptionPlan, EncryptionRule, EncryptionProvider, EncryptionKey } from './storage/encryption/plan.js';
export {
  EncryptionConfigError,
  loadEncryptionConfig,
  validateEncryptionConfiguration,
  type ClusterEncryption,
  type EncryptionConfiguration,
  type StoredObjectRef,
} from './config/encryption/index.js';
/**
 * The zod schema of an EncryptionConfiguration (`apiserver.config.k8s.io/v1`).
 * @category Storage and encryption
 */
export const EncryptionConfigurationSchema = encryptionConfigurationSchema();
export {
  AuditPolicyError,
  loadAuditPolicy,
  readAuditPolicyFile,
  type AuditPolicy,
  type LoadedAuditPolicy,
  type Policy as AuditPolicyDocument,
  type PolicyRule as AuditPolicyRule,
  type GroupResources as AuditGroupResources,
} from './config/audit/index.js';
export {
  AUDIT_LEVELS,
  AUDIT_STAGES,
  createMemoryAuditBackend,
  type AuditBackend,
  type AuditBackendContext,
  type AuditEvent,
  type AuditEventList,
  type AuditLevel,
  type AuditObjectReference,
  type AuditOptions,
  type AuditPipeline,
  type AuditResponseStatus,
  type AuditStage,
  type AuditUserInfo,
  type MemoryAuditBackend,
  type MemoryAuditBackendOptions,
} from './audit/index.js';
export {
  StorageCompactedError,
  StorageConflictError,
  StorageFutureRevisionError,
  StorageKeyError,
  type StorageChangesOptions,
  type StorageGetOptions,
  type ObjectKey,
  type Storage,
  type StorageEvent,
  type StorageListOptions,
  type LabelPair,
  type StorageListResult,
  type StoredObject,
  type StoredValue,
} from './storage/storage.js';
/**
 * The built-in kinds: each API group's kind definitions (`PodKind`, `DeploymentKind`, ...) and object types (`Pod`, `Deployment`, ...), and `builtinKinds`, the kinds every cluster serves.
 * @category Kinds
 */
export * as kinds from './kinds/index.js';
export {
  defineCustomResource,
  type CustomResource,
  type CustomResourceDeclaration,
  type CustomResourceObject,
  type CustomResourceVersionDeclaration,
} from './kinds/index.js';
/**
 * The zod schema of `metav1.ObjectMeta`, for declaring kinds of your own.
 * @category Defining kinds
 */
export const ObjectMetaSchema = ObjectMeta();
export { parseJson, JsonSyntaxError, type ParsedJson, type ParseJsonOptions } from './codec/json.js';
export { parseYamlDocuments, YamlSyntaxError, type ParsedYamlDocument } from './codec/yaml.js';
export {
  createFetchHandler,
  kubeconfigFor,
  type CorsOptions,
  type FetchHandler,
  type FetchHandlerOptions,
  type HttpAccess,
  type HttpCluster,
  type ListenOptions,
  type Listening,
} from './http/index.js';
export {
  portlessKubeConfig,
  type PortlessCluster,
  type PortlessKubeConfigOptions,
  type PortlessKubeConfigTarget,
  type PortlessRequestContext,
} from './http/portless-kubeconfig.js';
export type { AdminCredential, KubeconfigCredential } from './http/listen.js';
export type {
  AuthenticationResult,
  AuthorizationAttributes,
  AuthorizationDecision,
  AuthorizationResult,
  Authorizer,
  AuthServices,
  NonResourceRuleInfo,
  ResourceRuleInfo,
  RulesForResult,
  TokenAuthenticator,
} from './machinery/auth.js';
export { type AuthenticationOptions, type AuthorizationOptions } from './auth/cluster-access.js';
/**
 * AuthorizationConfiguration (`--authorization-config`) and kube-apiserver's authorization flags.
 * @category Authentication and authorization
 */
export * as authorizationConfig from './config/authorization/index.js';
/**
 * AuthenticationConfiguration (`--authentication-config`): JWT authenticators and anonymous rules.
 * @category Authentication and authorization
 */
export * as authenticationConfig from './config/authentication/index.js';
/**
 * EgressSelectorConfiguration (`--egress-selector-config-file`) and its dialers.
 * @category Configuration files
 */
export * as egressConfig from './config/egress/index.js';
/**
 * TracingConfiguration (`--tracing-config-file`).
 * @category Configuration files
 */
export * as tracingConfig from './config/tracing/index.js';
/**
 * AdmissionConfiguration (`--admission-control-config-file`).
 * @category Configuration files
 */
export * as admissionConfig from './config/admission/index.js';
/**
 * LoggingConfiguration and kube-apiserver's logging flags.
 * @category Configuration files
 */
export * as loggingConfig from './config/logging/index.js';
/**
 * ExecCredential (`client.authentication.k8s.io`), as exec credential plugins exchange it.
 * @category Authentication and authorization
 */
export * as execCredential from './config/exec-credential/index.js';
/**
 * NodeAgentConfiguration (kubelet's KubeletConfiguration): fields, decoding, defaults, validation, feature gates.
 * @category Node agent
 */
export * as nodeAgentConfig from './config/nodeagent/index.js';
/** @category Node agent */
export type { NodeAgentConfiguration, DefaultedNodeAgentConfiguration } from './config/nodeagent/types.js';
/** The node agent's settings from its command line: flags, `--config`, `--config-dir` drop-ins. */
export {
  loadNodeAgentSettings,
  NodeAgentConfigError,
  type NodeAgentSettings,
  type NodeAgentFlags,
  type NodeAgentLoadOptions,
  type NodeAgentDirEntry,
} from './nodeagent/config/load.js';
/** Spans of API requests exported over OTLP (`startRequestTracing`). */
export { startRequestTracing, type RequestTracer, type RequestSpan, type RequestTracingOptions } from './tracing/index.js';
export { parseTokenFile, staticTokenAuthenticator, type StaticToken } from './auth/authn/token-file.js';
export {
  AuthenticationError,
  type AnonymousPolicy,
  type AuthenticateRequest,
  type AuthenticationRequest,
  type ClientCertificate,
} from './auth/authn/request-authenticator.js';
export { alwaysAllowAuthorizer, alwaysDenyAuthorizer } from './auth/always.js';
export {
  signClientCertificate,
  type ClientCertificate as SignedClientCertificate,
  generateServingCertificate,
  type CertificateAndKey,
  type ClientCertificateOptions,
  type ServingCertificate,
  generateCertificateAuthority,
  type CertificateAuthorityOptions,
  SigningCaError,
} from './pki/self-signed.js';
export { createCertificateRequest, type CertificateRequestSubject } from './pki/certificate-request.js';
export type { CertificateSigningOptions, SigningCaFiles } from './controllers/certificates/signing-authorities.js';
export type { WellKnownSigner } from './controllers/certificates/signer-rules.js';
export { bootstrapTokenAuthenticator, type BootstrapTokenOptions } from './auth/authn/bootstrap-token.js';
/**
 * The patch engines (JSON patch, merge patch, strategic merge patch, patch creation), as pure functions.
 * @category Patch and apply
 */
export * as patch from './patch/index.js';
/**
 * Server-side apply and field management (FieldsV1 sets, managedFields, apply with conflicts).
 * @category Patch and apply
 */
export * as apply from './patch/apply/index.js';
/**
 * Label, field and shard selectors.
 * @category Utilities
 */
export * as selectors from './selectors/index.js';
/** Standard device attributes of dynamic resource allocation drivers (numaNode, pciBusID, pcieRoot), read from sysfs. */
export {
  DeviceAttributeError,
  getEquidistantNUMANodes,
  getNUMANodeAttribute,
  getNUMANodeAttributeByPCIBusID,
  getNUMANodeForCPU,
  getPCIBusIDAttribute,
  getPCIeRootAttributeByPCIBusID,
  MAX_NUMA_NODES,
  NUMA_NODE_ATTRIBUTE,
  PCI_BUS_ID_ATTRIBUTE,
  PCIE_ROOT_ATTRIBUTE,
  STANDARD_DEVICE_ATTRIBUTE_PREFIX,
  verifyPCIBusID,
  type DeviceAttribute,
  type DeviceAttributeOptions,
  type DeviceAttributeValue,
  type NUMANodeAttribute,
  type NUMANodeAttributeForm,
} from './nodeagent/devices/index.js';
/**
 * The node agent's sysctl pod admission and the kernel requirements of node features.
 * @category Node agent
 */
export * as nodeSysctls from './nodeagent/sysctls/index.js';
/**
 * The node agent's image pulls: credential provider plugins, pull records, the pull manager.
 * @category Node agent
 */
export * as nodeImages from './nodeagent/images/index.js';
/** The node agent's HTTPS server (kubelet's port 10250): endpoints, authentication, authorization, checkpoints. */
export {
  createNodeAgentServer,
  type NodeAgentServer,
  type NodeAgentServerAddress,
  type NodeAgentServerFeatureGates,
  type NodeAgentServerOptions,
  type NodeAgentTlsOptions,
  type NodeAgentAuthenticationOptions,
  type NodeAgentAuthorizationOptions,
  type NodeAgentPodSource,
  type NodeAgentServingCertificate,
  type WebhookRetry,
  type RetryBackoff,
  type RetryTiming,
  type GoTlsVersion,
} from './nodeagent/server/index.js';
/** The CRI (runtime.v1): memkube's client for containerd, CRI-O or `memkube cri`, and memkube's own runtime. */
export { createCriClient, type CriClient, type CriClientOptions } from './cri/client.js';
export { parseCriEndpoint, CriEndpointError, type CriEndpoint } from './cri/endpoint.js';
export { GrpcStatus, type GrpcStatusCode } from './cri/grpc-status.js';
export {
  createCriRuntime,
  createInProcessCriRuntime,
  CriFaults,
  type CriRuntimeOptions,
  type CriRuntimeServer,
  type InProcessCriRuntime,
  type InProcessCriRuntimeOptions,
  type FaultOptions,
  type ContainerBehaviour,
  type ScriptedLog,
  readTar,
  type TarMember,
} from './cri/runtime/index.js';
/**
 * The CRI (`runtime.v1`) as TypeScript: its messages and its two services, `RuntimeService` and `ImageService`.
 * @category CRI runtime
 */
export * as cri from './cri/api.js';
/** @category CRI runtime */
export { CriError } from './cri/api.js';
/** The node agent (a small kubelet): `createNodeAgent`, and its API server clients (a Fetch function, or a kubeconfig over HTTPS). */
export { createNodeAgent, type NodeAgent, type NodeAgentOptions, type NodeAgentPods } from './nodeagent/agent.js';
export { runNodeAgent, NodeAgentStartError, type RunNodeAgentOptions, type RunningNodeAgent } from './nodeagent/run.js';
export { behaviourFromEnv, CRI_BEHAVIOUR_ENV } from './cri/runtime/env-behaviour.js';
export { kubeApiClientOverFetch, type FetchLike } from './nodeagent/kube-api-fetch.js';
export { kubeApiClientFromKubeconfig } from './nodeagent/apiclient/kubeconfig-client.js';
export {
  MetricsRegistry,
  type MetricsReader,
  type MetricSample,
  type MetricsRegistryOptions,
  type MetricDefinition,
  type HistogramDefinition,
  type SummaryDefinition,
  type CounterMetric,
  type CounterSeries,
  type GaugeMetric,
  type HistogramMetric,
  type HistogramSeriesHandle,
  type SummaryMetric,
  type MetricLabels,
  type StabilityLevel,
} from './metrics/registry.js';
export { metricsAnswer, type MetricsAnswer, type MetricsRequestHeaders } from './metrics/answer.js';
export { HealthChecks, type HealthCheck, type HealthCheckType, type HealthAnswer, type HealthChecksOptions } from './metrics/health.js';
export { Faults, RequestLog } from './api/faults/index.js';
export type {
  FaultAnswer,
  FaultDelay,
  FaultError,
  FaultErrorReason,
  FaultHandle,
  FaultMatch,
  FaultResolver,
  FaultSpec,
  FaultWatch,
  RequestLogEntry,
} from './api/faults/index.js';
export type { AccessEgress } from './auth/cluster-access.js';
export type { ServiceAccountFlags, ServiceAccountSetup } from './auth/serviceaccount/options.js';
export type { ServiceAccountTokens } from './auth/serviceaccount/index.js';
export type { JsonWebKeySet, OpenIDConfiguration, PublicJwk } from './auth/serviceaccount/discovery.js';
export type { SigningAlgorithm, SigningKey, VerificationKey } from './auth/serviceaccount/keys.js';
export type { ReadFile } from './auth/webhook/kubeconfig.js';
export type { BoundObject, ServiceAccountTokenIssuer, ServiceAccountTokenRequest } from './machinery/auth.js';
export type { RequestAuditRecorder } from './machinery/request.js';
export type { BootstrapTokenSecret } from './auth/authn/bootstrap-token.js';
export type { IssuerDiscovery } from './http/door.js';
export type { FetchFunction } from './http/fetch-dispatcher.js';
export type { ActionContext, ActionSubresource, BuiltinObject, PublishedSchema, ReviewContext } from './schema/define-kind.js';
export type { BuiltinResource } from './client/builtin-resources.js';
export type {
  NativeBucketSpan,
  NativeHistogramConfig,
  NativeHistogramSeries,
  NativeHistogramSnapshot,
  NativeHistogramVec,
} from './metrics/native-histogram.js';
export type { AuditOutcome, AuditRequestInit, RequestAudit } from './audit/request-audit.js';
export type { AuditAttributes } from './audit/evaluate.js';
export type { ValidPolicyRule } from './config/audit/types.js';
export type { ConfigDecodeError, ConfigKind, ConfigVersion } from './config/decode.js';
export type { LoadEncryptionOptions } from './config/encryption/load.js';
export type { MemoryState } from './storage/memory.js';
export type { ServingCertificateOptions } from './pki/self-signed.js';
export type { TracedRequest, TracedResource, TracingSetupError } from './tracing/index.js';
export type { EgressDialer, EgressDialError, DialTarget } from './webhook/egress-dialer.js';
export type { RatchetingObserver } from './kinds/apiextensions/custom-resources/rules.js';
export type { ServiceReader } from './kinds/apiextensions/custom-resources/webhook-endpoint.js';
export type { MaybePromise } from './util/maybe-promise.js';
export type { GoURL } from './util/go-url.js';
export type { LogStream } from './cri/runtime/cri-log.js';
export type { AgentLog } from './nodeagent/agent-log.js';
export type { HostFacts } from './nodeagent/node/host-facts.js';
export type { ImageEnsurer } from './nodeagent/pods/image-ensurer.js';
export type { PodAdmitter } from './nodeagent/pods/pod-workers.js';
export type { UrlFetch } from './nodeagent/pods/sources/http.js';
export type { KubeApiClient, KubeApiError, KubeObjectJson, KubeRequestOptions, KubeWatchEvent } from './nodeagent/kube-api.js';
export type { KubeconfigClientOptions } from './nodeagent/apiclient/kubeconfig-client.js';
export type { FetchClientOptions } from './nodeagent/kube-api-fetch.js';
