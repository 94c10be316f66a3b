/**
 * Loading `--authorization-config` as kube-apiserver does (`pkg/kubeapiserver/authorizer`
 * LoadAndValidateFile / LoadAndValidateData): decode strictly, default, validate with every
 * authorization mode known and `Webhook` repeatable, then require the names kube-apiserver gives
 * the built-in modes (`rbac` for RBAC, `node` for Node, ...). Each failure throws an
 * {@link AuthorizationConfigError} whose message is kube-apiserver's.
 */
import { readFileSync } from 'node:fs';
import { rememberAuthorizationConfigurationText } from './source.js';
import { aggregateMessage } from '../../machinery/field-errors.js';
import { ConfigDecodeError, decodeConfig } from '../decode.js';
import { defaultAuthorizationConfiguration, type AuthorizationConfigurationDocument } from './defaults.js';
import { durationMs } from './duration.js';
import { authorizationConfigurationKind, type AuthorizationConfig, type AuthorizationConfigurationInput, type AuthorizerConfig } from './types.js';
import { statWithGoErrors, validateAuthorizationConfiguration, type FileStat } from './validation.js';

/** An AuthorizationConfiguration (or the flags that stand for one) that kube-apiserver would refuse. */
export class AuthorizationConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthorizationConfigError';
  }
}

/** The name kube-apiserver requires for an authorizer of a built-in mode (`GetNameForAuthorizerMode`): the mode in lower case. */
export function nameForAuthorizerMode(mode: string): string {
  return mode.toLowerCase();
}

/** Options of {@link loadAuthorizationConfiguration}. */
export interface LoadAuthorizationOptions {
  /** Looks at a webhook's kubeconfig file during validation; the real file system by default. */
  readonly statFile?: (path: string) => FileStat;
}

/** utilerrors.NewAggregate(...).Error(): one message alone, several in brackets. */
function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

/** The loaded configuration in the form authorizers are built from (durations in milliseconds; a TTL of a switched-off cache is 0). */
function toAuthorizationConfig(doc: AuthorizationConfigurationDocument): AuthorizationConfig {
  const authorizers = doc.authorizers.map((a): AuthorizerConfig => {
    if (a.type !== 'Webhook') return { type: a.type as Exclude<AuthorizerConfig['type'], 'Webhook'>, name: a.name };
    const w = a.webhook!;
    return {
      type: 'Webhook',
      name: a.name,
      webhook: {
        timeoutMs: durationMs(w.timeout),
        authorizedTTLMs: durationMs(w.authorizedTTL),
        cacheAuthorizedRequests: w.cacheAuthorizedRequests,
        unauthorizedTTLMs: durationMs(w.unauthorizedTTL),
        cacheUnauthorizedRequests: w.cacheUnauthorizedRequests,
        subjectAccessReviewVersion: w.subjectAccessReviewVersion as 'v1' | 'v1beta1',
        matchConditionSubjectAccessReviewVersion: w.matchConditionSubjectAccessReviewVersion,
        failurePolicy: w.failurePolicy as 'NoOpinion' | 'Deny',
        connectionInfo:
          w.connectionInfo.type === 'KubeConfigFile'
            ? { type: 'KubeConfigFile', kubeConfigFile: w.connectionInfo.kubeConfigFile! }
            : { type: 'InClusterConfig' },
        matchConditions: w.matchConditions,
      },
    };
  });
  return { authorizers };
}

/**
 * Decodes, defaults and validates an AuthorizationConfiguration text (YAML or JSON); an empty
 * text is a configuration without authorizers (which validation refuses). Throws an
 * {@link AuthorizationConfigError}: `failed to load AuthorizationConfiguration from file: ...` for
 * text that does not decode, the aggregated field errors for an invalid one, `expected name rbac
 * for authorizer RBAC instead of ...` for a built-in mode named otherwise. memkube also refuses
 * what it cannot run: ABAC, and webhooks reached with `InClusterConfig`.
 */
export function loadAuthorizationConfiguration(text: string, options: LoadAuthorizationOptions = {}): AuthorizationConfig {
  let doc: AuthorizationConfigurationDocument;
  try {
    const input: AuthorizationConfigurationInput =
      text.trim() === '' ? { apiVersion: '', kind: '' } : decodeConfig<AuthorizationConfigurationInput>(text, authorizationConfigurationKind).value;
    doc = defaultAuthorizationConfiguration(input);
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw new AuthorizationConfigError(`failed to load AuthorizationConfiguration from file: ${e.message}`);
    throw e;
  }
  const errors = validateAuthorizationConfiguration(doc, { statFile: options.statFile ?? statWithGoErrors });
  if (errors.length > 0) throw new AuthorizationConfigError(aggregateMessage(errors));

  const problems: string[] = [];
  for (const a of doc.authorizers) {
    if (a.type === 'Webhook') continue;
    const expected = nameForAuthorizerMode(a.type);
    if (a.name !== expected) problems.push(`expected name ${expected} for authorizer ${a.type} instead of ${a.name}`);
  }
  if (problems.length > 0) throw new AuthorizationConfigError(aggregate(problems));

  for (const a of doc.authorizers) {
    if (a.type === 'ABAC') throw new AuthorizationConfigError('authorizer type ABAC is not supported by memkube');
    if (a.webhook?.connectionInfo.type === 'InClusterConfig') {
      throw new AuthorizationConfigError(`authorizer ${a.name}: connectionInfo type InClusterConfig is not supported by memkube (use KubeConfigFile)`);
    }
  }
  const config = toAuthorizationConfig(doc);
  rememberAuthorizationConfigurationText(config, text);
  return config;
}

/** Options of {@link loadAuthorizationConfigurationFile}. */
export interface LoadAuthorizationFileOptions extends LoadAuthorizationOptions {
  /** Reads the file; the real file system by default. */
  readonly readFile?: (path: string) => string;
}

/** {@link loadAuthorizationConfiguration} of a file; a file that cannot be read fails with Go's `open <path>: ...` text. */
export function loadAuthorizationConfigurationFile(path: string, options: LoadAuthorizationFileOptions = {}): AuthorizationConfig {
  let text: string;
  try {
    text = options.readFile ? options.readFile(path) : readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (e as Error).message;
    throw new AuthorizationConfigError(code === 'EISDIR' ? `read ${path}: ${reason}` : `open ${path}: ${reason}`);
  }
  return loadAuthorizationConfiguration(text, options);
}
