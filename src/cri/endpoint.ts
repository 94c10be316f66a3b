/**
 * CRI endpoints as the kubelet reads `--container-runtime-endpoint` on Linux
 * (pkg/kubelet/util/util_unix.go, GetAddressAndDialer): `unix:///run/containerd/containerd.sock`;
 * a text without a scheme is tried again as `unix://<text>` and accepted with a deprecation
 * notice; `tcp://` parses but is refused ("only support unix socket endpoint"), and any other scheme
 * is refused as not supported.
 */

/**
 * A parsed endpoint: the socket's path, and the kubelet's notice when the text was deprecated.
 * @category CRI runtime
 */
export interface CriEndpoint {
  readonly socketPath: string;
  /** Set when the endpoint had no scheme: what the kubelet logs. */
  readonly deprecation?: string;
}

/**
 * An endpoint the kubelet would refuse, with the kubelet's message.
 * @category CRI runtime
 */
export class CriEndpointError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CriEndpointError';
  }
}

type Parsed = { protocol: string; address: string } | { protocol: string; error: string };

function unescapePath(path: string, endpoint: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw new CriEndpointError(`parse ${JSON.stringify(endpoint)}: invalid URL escape`);
  }
}

/** Go's url.Parse, as far as the kubelet's parseEndpoint looks: the scheme, host and path. */
function parseUrl(endpoint: string): Parsed {
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(endpoint);
  if (!scheme) return { protocol: '', error: `using ${JSON.stringify(endpoint)} as endpoint is deprecated, please consider using full url format` };
  const protocol = scheme[1]!.toLowerCase();
  const rest = endpoint.slice(scheme[0].length);
  let host = '';
  let path = rest;
  if (rest.startsWith('//')) {
    const slash = rest.indexOf('/', 2);
    host = slash === -1 ? rest.slice(2) : rest.slice(2, slash);
    path = slash === -1 ? '' : rest.slice(slash);
  } else if (!rest.startsWith('/')) {
    path = ''; // an opaque URL (`unix:relative`): Go leaves Path empty
  }
  path = path.replace(/[?#].*$/, '');
  switch (protocol) {
    case 'tcp':
      return { protocol, address: host };
    case 'unix':
      return { protocol, address: unescapePath(path, endpoint) };
    default:
      return { protocol, error: `protocol ${JSON.stringify(protocol)} not supported` };
  }
}

/**
 * Parses a CRI endpoint as the kubelet does on Linux; throws {@link CriEndpointError} when it would refuse it.
 * @category CRI runtime
 */
export function parseCriEndpoint(endpoint: string): CriEndpoint {
  let parsed = parseUrl(endpoint);
  let deprecation: string | undefined;
  if ('error' in parsed && parsed.protocol === '') {
    const fallback = `unix://${endpoint}`;
    const retried = parseUrl(fallback);
    if (!('error' in retried)) {
      deprecation = `Using this endpoint is deprecated, please consider using full URL format endpoint=${JSON.stringify(endpoint)} URL=${JSON.stringify(fallback)}`;
    }
    parsed = retried;
  }
  if ('error' in parsed) throw new CriEndpointError(parsed.error);
  if (parsed.protocol !== 'unix') throw new CriEndpointError('only support unix socket endpoint');
  if (parsed.address === '') throw new CriEndpointError(`endpoint ${JSON.stringify(endpoint)} names no socket path`);
  return { socketPath: parsed.address, ...(deprecation ? { deprecation } : {}) };
}
