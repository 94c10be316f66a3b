/** The node agent's HTTPS server: endpoints, authentication, authorization and checkpoints. */
export { createNodeAgentServer } from './server.js';
export type { NodeAgentServer, NodeAgentServerAddress, NodeAgentServerFeatureGates, NodeAgentServerOptions, NodeAgentTlsOptions } from './server.js';
export type { NodeAgentAuthenticationOptions } from './authenticate.js';
export type { NodeAgentAuthorizationOptions } from './authorize.js';
export type { NodeAgentPodSource } from './pod-containers.js';
export type { NodeAgentServingCertificate } from './serving-certificate.js';
export type { WebhookRetry } from './webhook-retry.js';
export type { RetryBackoff, RetryTiming } from '../../auth/webhook/retry.js';
export type { GoTlsVersion } from './tls-settings.js';
