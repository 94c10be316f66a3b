/**
 * CredentialProviderConfig: the file `--image-credential-provider-config` names, listing the exec
 * plugins the node agent asks for registry credentials (pkg/credentialprovider/plugin/config.go).
 * Served as `kubelet.config.k8s.io/v1` (and v1beta1, v1alpha1) and as memkube's
 * `nodeagent.config.k8s.io/v1beta1`, strictly decoded; a directory is read as all its `*.json`,
 * `*.yaml` and `*.yml` files in lexical order, their providers merged.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { z } from 'zod';
import { aggregateMessage, fieldError, type FieldError } from '../../machinery/field-errors.js';
import { parseGoDuration } from '../../util/go-time.js';
import { ConfigDecodeError, decodeConfig, type ConfigKind } from '../../config/decode.js';
import { parseSchemelessURL } from './match-image.js';

/** The plugin protocol versions a provider may speak (`apiVersions`), sorted. */
export const CREDENTIAL_PROVIDER_API_VERSIONS = [
  'credentialprovider.kubelet.k8s.io/v1',
  'credentialprovider.kubelet.k8s.io/v1alpha1',
  'credentialprovider.kubelet.k8s.io/v1beta1',
] as const;

const ExecEnvVarSchema = z.object({ name: z.string(), value: z.string() });

/** One exec plugin. */
export const CredentialProviderSchema = z.object({
  /** The plugin's file name in the plugin directory; no `/`, spaces, `.` or `..`. */
  name: z.string().optional(),
  /** Image globs the plugin serves: `*.registry.io`, `registry.io:5000/team`. */
  matchImages: z.array(z.string()).optional(),
  /** How long to cache a response without `cacheDuration` (Go duration text); required. */
  defaultCacheDuration: z.string().optional(),
  /** The `credentialprovider.kubelet.k8s.io` version of the request and response. */
  apiVersion: z.string().optional(),
  args: z.array(z.string()).optional(),
  /** Added to the node agent's environment for the plugin. */
  env: z.array(ExecEnvVarSchema).optional(),
  /** Service account tokens for the plugin: not supported by memkube (refused by validation). */
  tokenAttributes: z.record(z.string(), z.unknown()).optional(),
});

function configSchema(apiVersion: string) {
  return z.object({
    apiVersion: z.literal(apiVersion),
    kind: z.literal('CredentialProviderConfig'),
    providers: z.array(CredentialProviderSchema).optional(),
  });
}

const VERSIONS = ['kubelet.config.k8s.io/v1', 'kubelet.config.k8s.io/v1beta1', 'kubelet.config.k8s.io/v1alpha1', 'nodeagent.config.k8s.io/v1beta1'];

/** The kind and its served versions. */
export const CredentialProviderConfigKind: ConfigKind = {
  kind: 'CredentialProviderConfig',
  versions: VERSIONS.map((apiVersion) => ({ apiVersion, schema: configSchema(apiVersion) })),
};

/** One exec plugin of a CredentialProviderConfig: its name, the images it serves, cache duration, version, arguments and environment. */
export type CredentialProvider = z.infer<typeof CredentialProviderSchema>;

/** A decoded configuration (any version: the fields are the same). */
export interface CredentialProviderConfig {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly providers?: readonly CredentialProvider[];
}

/** A provider after validation: durations in milliseconds. */
export interface ValidCredentialProvider {
  readonly name: string;
  readonly matchImages: readonly string[];
  readonly defaultCacheDurationMs: number;
  readonly apiVersion: string;
  readonly args: readonly string[];
  readonly env: readonly { readonly name: string; readonly value: string }[];
}

/** Thrown for a configuration the node agent refuses at start; the message is the kubelet's. */
export class CredentialProviderConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CredentialProviderConfigError';
  }
}

/** Decodes one configuration text (YAML or JSON); throws {@link CredentialProviderConfigError}. */
export function decodeCredentialProviderConfig(text: string): CredentialProviderConfig {
  try {
    return decodeConfig<CredentialProviderConfig>(text, CredentialProviderConfigKind).value;
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw new CredentialProviderConfigError(e.message);
    throw e;
  }
}

/**
 * Reads a configuration file, or every `*.json`/`*.yaml`/`*.yml` file of a directory in lexical
 * order with their providers merged (`readCredentialProviderConfig`); a provider name in two files
 * is refused.
 */
export function readCredentialProviderConfig(path: string): CredentialProviderConfig {
  if (path === '') throw new CredentialProviderConfigError('credential provider config path is empty');
  let isDir: boolean;
  try {
    isDir = statSync(path).isDirectory();
  } catch (e) {
    throw new CredentialProviderConfigError(`unable to access path ${JSON.stringify(path)}: ${goFsError('stat', path, e)}`);
  }
  let files = [path];
  if (isDir) {
    files = readdirSync(path, { withFileTypes: true })
      .filter((d) => !d.isDirectory() && ['.json', '.yaml', '.yml'].includes(extname(d.name)))
      .map((d) => join(path, d.name))
      .sort();
    if (files.length === 0) throw new CredentialProviderConfigError(`no configuration files found in directory ${JSON.stringify(path)}`);
  }
  const providers: CredentialProvider[] = [];
  const names = new Set<string>();
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new CredentialProviderConfigError(`unable to read file ${JSON.stringify(file)}: ${goFsError('open', file, e)}`);
    }
    let config: CredentialProviderConfig;
    try {
      config = decodeCredentialProviderConfig(text);
    } catch (e) {
      throw new CredentialProviderConfigError(`error decoding config ${JSON.stringify(file)}: ${(e as Error).message}`);
    }
    for (const provider of config.providers ?? []) {
      const name = provider.name ?? '';
      if (names.has(name)) throw new CredentialProviderConfigError(`duplicate provider name ${JSON.stringify(name)} found in configuration file(s)`);
      names.add(name);
      providers.push(provider);
    }
  }
  return { providers };
}

/** The field errors of a configuration (`validateCredentialProviderConfig`, without service account tokens). */
export function validateCredentialProviderConfig(config: CredentialProviderConfig): FieldError[] {
  const errs: FieldError[] = [];
  const providers = config.providers ?? [];
  if (providers.length === 0) errs.push(fieldError.required('providers', 'at least 1 item in plugins is required'));
  const seen = new Set<string>();
  for (const provider of providers) {
    const name = provider.name ?? '';
    if (name.includes('/')) errs.push(fieldError.invalid('providers.name', name, "provider name cannot contain '/'"));
    if (name.includes(' ')) errs.push(fieldError.invalid('providers.name', name, 'provider name cannot contain spaces'));
    if (name === '.') errs.push(fieldError.invalid('providers.name', name, "provider name cannot be '.'"));
    if (name === '..') errs.push(fieldError.invalid('providers.name', name, "provider name cannot be '..'"));
    if (seen.has(name)) errs.push(fieldError.duplicate('providers.name', name));
    seen.add(name);
    if (!provider.apiVersion) errs.push(fieldError.required('providers.apiVersion'));
    else if (!(CREDENTIAL_PROVIDER_API_VERSIONS as readonly string[]).includes(provider.apiVersion)) {
      errs.push(fieldError.notSupported('providers.apiVersion', provider.apiVersion, CREDENTIAL_PROVIDER_API_VERSIONS));
    }
    if (!provider.matchImages?.length) errs.push(fieldError.required('providers.matchImages', 'at least 1 item in matchImages is required'));
    for (const matchImage of provider.matchImages ?? []) {
      try {
        parseSchemelessURL(matchImage);
      } catch (e) {
        errs.push(fieldError.invalid('providers.matchImages', matchImage, `match image is invalid: ${(e as Error).message}`));
      }
    }
    if (provider.defaultCacheDuration === undefined) errs.push(fieldError.required('providers.defaultCacheDuration'));
    else {
      const ns = parseGoDuration(provider.defaultCacheDuration);
      if (ns === undefined) errs.push(fieldError.invalid('providers.defaultCacheDuration', provider.defaultCacheDuration, 'not a duration'));
      else if (ns < 0n)
        errs.push(
          fieldError.invalid('providers.defaultCacheDuration', provider.defaultCacheDuration, 'defaultCacheDuration must be greater than or equal to 0'),
        );
    }
    if (provider.tokenAttributes !== undefined) {
      errs.push(
        fieldError.forbidden(
          'providers.tokenAttributes',
          'tokenAttributes is not supported when KubeletServiceAccountTokenForCredentialProviders feature gate is disabled',
        ),
      );
    }
  }
  return errs;
}

/**
 * The providers of a valid configuration; throws {@link CredentialProviderConfigError} with
 * `failed to validate credential provider config: ...` otherwise.
 */
export function validCredentialProviders(config: CredentialProviderConfig): ValidCredentialProvider[] {
  const errs = validateCredentialProviderConfig(config);
  if (errs.length) throw new CredentialProviderConfigError(`failed to validate credential provider config: ${aggregateMessage(errs)}`);
  return (config.providers ?? []).map((p) => ({
    name: p.name!,
    matchImages: p.matchImages!,
    defaultCacheDurationMs: Number(parseGoDuration(p.defaultCacheDuration!)! / 1_000_000n),
    apiVersion: p.apiVersion!,
    args: p.args ?? [],
    env: p.env ?? [],
  }));
}

function goFsError(op: string, path: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  const reason = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : (e as Error).message;
  return `${op} ${path}: ${reason}`;
}
