/**
 * A docker keyring (pkg/credentialprovider/keyring.go `BasicDockerKeyring`): credentials by
 * registry location, looked up for an image. Locations are normalized as the docker client does
 * (`https://` and a `/v1/` or `/v2/` path dropped) and tried most specific first (reverse lexical
 * order), each matched with {@link urlsMatchStr}; `index.docker.io` serves `docker.io` images.
 */
import { goParseURL } from '../../util/go-url.js';
import { urlsMatchStr } from './match-image.js';

/** Credentials for one registry location, as a docker config holds them. */
export interface DockerConfigEntry {
  readonly username?: string;
  readonly password?: string;
  readonly auth?: string;
  readonly identityToken?: string;
  readonly registryToken?: string;
}

/** A set of credentials from one source, with what the pull records need to know of it. */
export interface TrackedCredential<S = unknown> {
  readonly entry: DockerConfigEntry;
  /** Where the credential came from (a pod's secret, a node provider). */
  readonly source: S;
}

/** Credentials by location, looked up for images. */
export interface DockerKeyring<S> {
  /** The credentials whose location matches `image` (a normalized repository name), most specific first. */
  lookup(image: string): TrackedCredential<S>[];
}

const DEFAULT_REGISTRY_HOST = 'index.docker.io';

/** A keyring of `configs` (location → entry), every entry tagged with its source. */
export function createDockerKeyring<S>(
  configs: readonly { readonly config: Readonly<Record<string, DockerConfigEntry>>; readonly source: S }[],
): DockerKeyring<S> {
  const creds = new Map<string, TrackedCredential<S>[]>();
  for (const { config, source } of configs) {
    for (const [location, entry] of Object.entries(config)) {
      const key = normalizeLocation(location);
      if (key === undefined) continue;
      const list = creds.get(key) ?? [];
      list.push({ entry, source });
      creds.set(key, list);
    }
  }
  const index = [...creds.keys()].sort().reverse();
  return {
    lookup(image) {
      const found: TrackedCredential<S>[] = [];
      for (const key of index) {
        let matched = false;
        try {
          matched = urlsMatchStr(key, image);
        } catch {
          matched = false;
        }
        if (matched) found.push(...creds.get(key)!);
      }
      if (found.length === 0 && isDefaultRegistryImage(image)) found.push(...(creds.get(DEFAULT_REGISTRY_HOST) ?? []));
      return found;
    },
  };
}

/** A docker config location as a keyring key; `undefined` for one that does not parse. */
function normalizeLocation(location: string): string | undefined {
  const value = location.startsWith('https://') || location.startsWith('http://') ? location : `https://${location}`;
  const parsed = goParseURL(value);
  if (!parsed.ok) return undefined;
  let path = parsed.url.path;
  if (path.startsWith('/v2/') || path.startsWith('/v1/')) path = path.slice(3);
  return path.length > 0 && path !== '/' ? parsed.url.host + path : parsed.url.host;
}

function isDefaultRegistryImage(image: string): boolean {
  const first = image.split('/')[0]!;
  if (first === '') return false;
  return first === 'docker.io' || first === DEFAULT_REGISTRY_HOST || !image.includes('/') || !/[.:]/.test(first);
}

/** Thrown for a pull secret that is not a docker config. */
export class DockerConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DockerConfigError';
  }
}

/**
 * The entries of a pull secret's docker config: `{"auths": {...}}` (`.dockerconfigjson`) or the
 * legacy `.dockercfg` map. An `auth` field (base64 of `user:password`) fills username and password,
 * as `DockerConfigEntry.UnmarshalJSON` does.
 */
export function parseDockerConfig(text: string): Record<string, DockerConfigEntry> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new DockerConfigError(`invalid docker config: ${(e as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new DockerConfigError('invalid docker config: not a JSON object');
  const auths = 'auths' in parsed ? (parsed as { auths: unknown }).auths : parsed;
  if (auths === null || typeof auths !== 'object' || Array.isArray(auths)) throw new DockerConfigError('invalid docker config: auths is not an object');
  const out: Record<string, DockerConfigEntry> = {};
  for (const [location, raw] of Object.entries(auths as Record<string, unknown>)) {
    if (raw === null || typeof raw !== 'object') throw new DockerConfigError(`invalid docker config: entry ${JSON.stringify(location)} is not an object`);
    const r = raw as Record<string, unknown>;
    const str = (k: string) => (typeof r[k] === 'string' ? (r[k] as string) : undefined);
    let username = str('username');
    let password = str('password');
    const auth = str('auth');
    if (auth) {
      const decoded = Buffer.from(auth, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon === -1) throw new DockerConfigError(`invalid docker config: entry ${JSON.stringify(location)}: auth is not base64 of user:password`);
      username = decoded.slice(0, colon);
      password = decoded.slice(colon + 1);
    }
    const identityToken = str('identitytoken') ?? str('identityToken');
    const registryToken = str('registrytoken') ?? str('registryToken');
    out[location] = {
      ...(username !== undefined ? { username } : {}),
      ...(password !== undefined ? { password } : {}),
      ...(auth !== undefined ? { auth } : {}),
      ...(identityToken !== undefined ? { identityToken } : {}),
      ...(registryToken !== undefined ? { registryToken } : {}),
    };
  }
  return out;
}
