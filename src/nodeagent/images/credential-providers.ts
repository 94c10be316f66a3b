/**
 * The node's credential providers (pkg/credentialprovider/plugin/plugin.go `pluginProvider`): each
 * provider whose `matchImages` matches an image runs its plugin — unless a cached response for the
 * image, its registry or the global key is still fresh — and the answers of all matching providers
 * are combined, the earlier provider's first.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../clock.js';
import {
  readCredentialProviderConfig,
  validCredentialProviders,
  CredentialProviderConfigError,
  type CredentialProviderConfig,
  type ValidCredentialProvider,
} from './credential-provider-config.js';
import type { DockerConfigEntry } from './docker-keyring.js';
import { execCredentialPlugin, type CredentialProviderResponse } from './exec-plugin.js';
import { urlsMatchStr } from './match-image.js';

/** Credentials one provider returned for an image, by location. */
export interface ProvidedCredentials {
  readonly provider: string;
  readonly config: Readonly<Record<string, DockerConfigEntry>>;
}

/** Asks the configured plugins for an image's credentials. */
export interface CredentialProviders {
  /**
   * The credentials of every provider matching `image` (a repository name or full reference), in
   * configuration order. A failing plugin contributes nothing (the kubelet logs and goes on);
   * `onError` hears about it.
   */
  provide(image: string): Promise<ProvidedCredentials[]>;
}

/** Options of {@link createCredentialProviders}. */
export interface CredentialProvidersOptions {
  /** The configuration, or the path of its file or directory (`--image-credential-provider-config`). */
  readonly config: CredentialProviderConfig | string;
  /** `--image-credential-provider-bin-dir`. */
  readonly binDir: string;
  readonly clock?: Clock;
  /** Per plugin run; default one minute. */
  readonly timeoutMs?: number;
  readonly maxOutputBytes?: number;
  readonly environment?: NodeJS.ProcessEnv;
  /** Hears of a plugin that failed: its name and the error. */
  readonly onError?: (provider: string, error: Error) => void;
}

const GLOBAL_CACHE_KEY = 'global';

/**
 * The providers of a configuration. Throws `CredentialProviderConfigError` as the kubelet refuses
 * to start: a missing plugin directory or binary, an invalid configuration.
 */
export function createCredentialProviders(options: CredentialProvidersOptions): CredentialProviders {
  try {
    statSync(options.binDir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') throw new CredentialProviderConfigError(`plugin binary directory ${options.binDir} did not exist`);
    throw new CredentialProviderConfigError(`error inspecting binary directory ${options.binDir}: ${(e as Error).message}`);
  }
  const config = typeof options.config === 'string' ? readCredentialProviderConfig(options.config) : options.config;
  const providers = validCredentialProviders(config);
  for (const provider of providers) {
    const bin = join(options.binDir, provider.name);
    try {
      if (!statSync(bin).isFile()) throw new CredentialProviderConfigError(`error inspecting binary executable ${bin}: not a regular file`);
    } catch (e) {
      if (e instanceof CredentialProviderConfigError) throw e;
      throw new CredentialProviderConfigError(`plugin binary executable ${bin} did not exist`);
    }
  }
  const now = () => options.clock?.now() ?? Date.now();
  const runners = providers.map((provider) => pluginProvider(provider, options, now));
  return {
    async provide(image) {
      const answers = await Promise.all(runners.map((run) => run(image)));
      return answers.filter((a): a is ProvidedCredentials => a !== undefined);
    },
  };
}

function pluginProvider(provider: ValidCredentialProvider, options: CredentialProvidersOptions, now: () => number) {
  const cache = new Map<string, { readonly config: Record<string, DockerConfigEntry>; readonly expiresAt: number }>();
  const inFlight = new Map<string, Promise<CredentialProviderResponse>>();
  const fresh = (key: string) => {
    const entry = cache.get(key);
    if (entry && now() <= entry.expiresAt) return entry.config;
    if (entry) cache.delete(key);
    return undefined;
  };
  return async (image: string): Promise<ProvidedCredentials | undefined> => {
    if (!provider.matchImages.some((glob) => safeMatch(glob, image))) return undefined;
    const registry = image.split('/')[0]!;
    const cached = fresh(image) ?? fresh(registry) ?? fresh(GLOBAL_CACHE_KEY);
    if (cached) return { provider: provider.name, config: cached };
    // One run for concurrent requests of one image (the kubelet's singleflight).
    let running = inFlight.get(image);
    if (!running) {
      running = execCredentialPlugin({ binDir: options.binDir, provider, image, ...pick(options) }).finally(() => inFlight.delete(image));
      inFlight.set(image, running);
    }
    let response: CredentialProviderResponse;
    try {
      response = await running;
    } catch (e) {
      options.onError?.(provider.name, e as Error);
      return undefined;
    }
    const config: Record<string, DockerConfigEntry> = {};
    for (const [key, auth] of Object.entries(response.auth)) config[key] = { username: auth.username, password: auth.password };
    const duration = response.cacheDurationMs ?? provider.defaultCacheDurationMs;
    if (duration > 0) {
      const key = response.cacheKeyType === 'Image' ? image : response.cacheKeyType === 'Registry' ? registry : GLOBAL_CACHE_KEY;
      cache.set(key, { config, expiresAt: now() + duration });
    }
    return { provider: provider.name, config };
  };
}

function pick(options: CredentialProvidersOptions) {
  return {
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.maxOutputBytes !== undefined ? { maxOutputBytes: options.maxOutputBytes } : {}),
    ...(options.environment !== undefined ? { environment: options.environment } : {}),
  };
}

function safeMatch(glob: string, image: string): boolean {
  try {
    return urlsMatchStr(glob, image);
  } catch {
    return false;
  }
}
