/**
 * The dialers of a loaded EgressSelectorConfiguration, as kube-apiserver's `NewEgressSelector`
 * builds them (k8s.io/apiserver pkg/server/egressselector/egress_selector.go): one per selection;
 * `Direct` (or no selection) dials straight, `HTTPConnect` tunnels through the proxy, reading the
 * TLS files once, at start. memkube has no konnectivity client: a `GRPC` selection it would use
 * (controlplane or cluster) is refused; etcd's is ignored, as memkube has no etcd to dial.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { Agent } from 'node:https';
import { goQuote } from '../../util/go-format.js';
import { goParseURL } from '../../util/go-url.js';
import { egressHttpsAgent, httpConnectDialer, type EgressDialer, type ProxyTls } from '../../webhook/egress-dialer.js';
import { goReadFile } from '../go-read-file.js';
import type { EgressConnection, EgressSelectionName, EgressSelectorConfiguration, EgressTLSConfig } from './types.js';

/** A configuration turned into dialers, per selection. */
export interface EgressSelector {
  /** The dialer of a selection; undefined when it connects directly. */
  dialerFor(selection: EgressSelectionName): EgressDialer | undefined;
  /**
   * A node:https Agent whose connections go the selection's way (for an OIDC discovery fetch, a
   * JWKS fetch, ...); undefined when the selection connects directly (use the default agent).
   */
  agentFor(selection: EgressSelectionName): Agent | undefined;
}

/** A configuration that cannot be turned into dialers; the message is kube-apiserver's (or memkube's, for GRPC). */
export class EgressSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressSetupError';
  }
}

/** Options of {@link buildEgressSelector}. */
export interface EgressSelectorOptions {
  /** Reads a file a TLS config names; Go's `os.ReadFile` over the real file system by default. */
  readonly readFile?: typeof goReadFile;
}

/** Go's `tls.X509KeyPair` checks, in its words, over PEM texts. */
function keyPairProblem(certPem: string, keyPem: string): string | undefined {
  if (!/-----BEGIN [A-Z ]*CERTIFICATE-----/.test(certPem)) return 'tls: failed to find any PEM data in certificate input';
  if (!/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(keyPem)) return 'tls: failed to find any PEM data in key input';
  try {
    const cert = new X509Certificate(certPem);
    if (!cert.checkPrivateKey(createPrivateKey(keyPem))) return 'tls: private key does not match public key';
  } catch (e) {
    return `tls: failed to parse certificate or key: ${e instanceof Error ? e.message : String(e)}`;
  }
  return undefined;
}

/** `getTLSConfig`: the client key pair and the CA bundle (the system roots when none). */
function proxyTls(tls: EgressTLSConfig, readFile: typeof goReadFile): ProxyTls {
  const certPath = tls.clientCert ?? '';
  const keyPath = tls.clientKey ?? '';
  const cert = readFile(certPath);
  const key = cert.ok ? readFile(keyPath) : cert;
  if (!cert.ok || !key.ok)
    throw new EgressSetupError(`failed to read key pair ${certPath} & ${keyPath}, got ${cert.ok ? (key.ok ? '' : key.error) : cert.error}`);
  const problem = keyPairProblem(cert.data.toString(), key.data.toString());
  if (problem) throw new EgressSetupError(`failed to read key pair ${certPath} & ${keyPath}, got ${problem}`);
  let ca: string[] | undefined;
  if (tls.caBundle) {
    const bundle = readFile(tls.caBundle);
    if (!bundle.ok) throw new EgressSetupError(`failed to read cert file ${tls.caBundle}, got ${bundle.error}`);
    ca = pemCertificates(bundle.data.toString());
    if (ca.length === 0) throw new EgressSetupError('failed to append CA cert to the cert pool');
  }
  return { cert: cert.data.toString(), key: key.data.toString(), ...(ca ? { ca } : {}), ...(tls.tlsServerName ? { serverName: tls.tlsServerName } : {}) };
}

/** The parsable certificates of a PEM bundle (Go's `AppendCertsFromPEM` skips the others). */
function pemCertificates(text: string): string[] {
  const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.filter((pem) => {
    try {
      new X509Certificate(pem);
      return true;
    } catch {
      return false;
    }
  });
}

/** `connectionToDialerCreator`: the dialer of one connection; undefined for Direct. */
function dialerOf(name: string, connection: EgressConnection, readFile: typeof goReadFile): EgressDialer | undefined {
  const transport = connection.transport;
  switch (connection.proxyProtocol) {
    case 'Direct':
      return undefined;
    case 'HTTPConnect': {
      if (transport?.uds) return httpConnectDialer({ proxy: { uds: transport.uds.udsName ?? '' } });
      if (!transport?.tcp) throw new EgressSetupError('Either a TCP or UDS transport must be specified');
      const url = transport.tcp.url ?? '';
      const parsed = goParseURL(url);
      if (!parsed.ok) throw new EgressSetupError(`invalid proxy server url ${goQuote(url)}: ${parsed.error}`);
      // kube-apiserver always speaks TLS to a TCP proxy; memkube speaks plain TCP to an http:// one.
      const tls = parsed.url.scheme === 'https' ? proxyTls(transport.tcp.tlsConfig ?? {}, readFile) : undefined;
      return httpConnectDialer({ proxy: { tcp: { address: parsed.url.host, ...(tls ? { tls } : {}) } } });
    }
    case 'GRPC':
      throw new EgressSetupError(
        `memkube has no konnectivity client: egressSelection ${JSON.stringify(name)} uses proxyProtocol GRPC; use HTTPConnect or Direct`,
      );
    default:
      throw new EgressSetupError(`unrecognized service connection protocol ${JSON.stringify(connection.proxyProtocol ?? '')}`);
  }
}

/**
 * The dialers of a validated configuration (`NewEgressSelector`). Throws an
 * {@link EgressSetupError} for an unreadable TLS file, a GRPC selection memkube would use, ...
 */
export function buildEgressSelector(config: EgressSelectorConfiguration, options: EgressSelectorOptions = {}): EgressSelector {
  const readFile = options.readFile ?? goReadFile;
  const dialers = new Map<EgressSelectionName, EgressDialer>();
  for (const selection of config.egressSelections ?? []) {
    const name = (selection.name ?? '').toLowerCase();
    if (name === 'etcd') continue;
    if (name !== 'controlplane' && name !== 'cluster') throw new EgressSetupError(`unrecognized service name ${selection.name ?? ''}`);
    let dialer: EgressDialer | undefined;
    try {
      dialer = dialerOf(name, selection.connection ?? {}, readFile);
    } catch (e) {
      if (!(e instanceof EgressSetupError) || e.message.startsWith('memkube ')) throw e;
      throw new EgressSetupError(`failed to create dialer for egressSelection ${JSON.stringify(name)}: ${e.message}`);
    }
    if (dialer) dialers.set(name, dialer);
  }
  const agents = new Map<EgressSelectionName, Agent>();
  return {
    dialerFor: (selection) => dialers.get(selection),
    agentFor(selection) {
      const dialer = dialers.get(selection);
      if (!dialer) return undefined;
      let agent = agents.get(selection);
      if (!agent) {
        agent = egressHttpsAgent(dialer);
        agents.set(selection, agent);
      }
      return agent;
    },
  };
}
