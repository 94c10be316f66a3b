/**
 * Validation of an EgressSelectorConfiguration as kube-apiserver's
 * (k8s.io/apiserver pkg/server/egressselector/config.go ValidateEgressSelectorConfiguration): each
 * selection's protocol and transport, then the names (`controlplane`, `cluster`, `etcd`, once
 * each, compared in lower case). Every field path is `service.connection...`, as upstream writes it.
 */
import { fieldError, GoPrinted, type FieldError } from '../../machinery/field-errors.js';
import { goJson } from '../../util/go-format.js';
import { pathExists } from '../go-read-file.js';
import {
  EGRESS_SELECTION_NAMES,
  PROXY_PROTOCOLS,
  type EgressConnection,
  type EgressSelectorConfiguration,
  type EgressTCPTransport,
  type EgressTLSConfig,
  type EgressTransport,
  type EgressUDSTransport,
} from './types.js';

/** Options of {@link validateEgressSelectorConfiguration}. */
export interface EgressValidationOptions {
  /** Whether a file named by a TLS config exists; the real file system by default. */
  readonly exists?: (path: string) => boolean;
}

const PATH = 'service.connection';

/**
 * The problems of a decoded configuration (after the `master` → `controlplane` rename), in
 * upstream's order; empty when it is valid.
 */
export function validateEgressSelectorConfiguration(config: EgressSelectorConfiguration, options: EgressValidationOptions = {}): FieldError[] {
  const exists = options.exists ?? pathExists;
  const errs: FieldError[] = [];
  const selections = config.egressSelections ?? [];
  for (const selection of selections) {
    const connection = selection.connection ?? {};
    const protocol = connection.proxyProtocol ?? '';
    switch (protocol) {
      case 'Direct':
        errs.push(...validateDirectConnection(connection));
        break;
      case 'HTTPConnect':
        errs.push(...validateHTTPConnectTransport(connection.transport, exists));
        break;
      case 'GRPC':
        errs.push(...validateGRPCTransport(connection.transport));
        break;
      default:
        // A ProtocolType is not a plain string to field.Error: its value is printed as JSON.
        errs.push(fieldError.notSupported(`${PATH}.protocol`, new GoPrinted(goJson(protocol)), PROXY_PROTOCOLS));
    }
  }
  const seen = new Set<string>();
  selections.forEach((selection, i) => {
    const canonical = (selection.name ?? '').toLowerCase();
    if (seen.has(canonical)) {
      errs.push(fieldError.duplicate(`${PATH}[${i}]`, canonical));
      return;
    }
    seen.add(canonical);
    if (!(EGRESS_SELECTION_NAMES as readonly string[]).includes(canonical)) {
      errs.push(fieldError.notSupported(PATH, canonical, EGRESS_SELECTION_NAMES));
    }
  });
  return errs;
}

function validateDirectConnection(connection: EgressConnection): FieldError[] {
  return connection.transport ? [fieldError.invalid(`${PATH}.transport`, 'direct', 'config must be absent for direct connect')] : [];
}

/** The internal TCPTransport as `json.Marshal` prints it (Go field names, no tags). */
function tcpTransportValue(tcp: EgressTCPTransport): GoPrinted {
  const tls = tcp.tlsConfig;
  return new GoPrinted(
    goJson({
      URL: tcp.url ?? '',
      TLSConfig: tls
        ? { CABundle: tls.caBundle ?? '', ClientKey: tls.clientKey ?? '', ClientCert: tls.clientCert ?? '', TLSServerName: tls.tlsServerName ?? '' }
        : null,
    }),
  );
}

function validateHTTPConnectTransport(transport: EgressTransport | undefined, exists: (path: string) => boolean): FieldError[] {
  if (!transport) return [fieldError.required(`${PATH}.transport`, 'transport must be set for HTTPConnect')];
  if (transport.tcp && transport.uds) return [fieldError.invalid(`${PATH}.tcp`, tcpTransportValue(transport.tcp), 'TCP and UDS cannot both be set')];
  if (!transport.tcp && !transport.uds) return [fieldError.required(`${PATH}.tcp`, 'One of TCP or UDS must be set')];
  if (transport.tcp) return validateTCPConnection(transport.tcp, exists);
  return validateUDSConnection(transport.uds!);
}

function validateGRPCTransport(transport: EgressTransport | undefined): FieldError[] {
  if (!transport) return [fieldError.required(`${PATH}.transport`, 'transport must be set for GRPC')];
  if (transport.uds) return validateUDSConnection(transport.uds);
  return [fieldError.required(`${PATH}.uds`, 'UDS must be set with GRPC')];
}

function validateUDSConnection(uds: EgressUDSTransport): FieldError[] {
  return uds.udsName ? [] : [fieldError.invalid(`${PATH}.udsName`, 'nil', 'must be present for UDS connections')];
}

function validateTCPConnection(tcp: EgressTCPTransport, exists: (path: string) => boolean): FieldError[] {
  const url = tcp.url ?? '';
  if (url.startsWith('http://')) {
    return tcp.tlsConfig ? [fieldError.invalid(`${PATH}.tlsConfig`, 'nil', 'config must not be present when using HTTP')] : [];
  }
  if (url.startsWith('https://')) return validateTLSConfig(tcp.tlsConfig, exists);
  return [fieldError.invalid(`${PATH}.url`, url, 'supported connection protocols are http:// and https://')];
}

function validateTLSConfig(tls: EgressTLSConfig | undefined, exists: (path: string) => boolean): FieldError[] {
  if (!tls) return [fieldError.required(`${PATH}.tlsConfig`, 'TLSConfig must be present when using HTTPS')];
  const errs: FieldError[] = [];
  if (tls.caBundle && !exists(tls.caBundle)) {
    errs.push(fieldError.invalid(`${PATH}.tlsConfig.caBundle`, tls.caBundle, 'TLS config ca bundle does not exist'));
  }
  if (!tls.clientCert) errs.push(fieldError.invalid(`${PATH}.tlsConfig.clientCert`, 'nil', 'Using TLS requires clientCert'));
  else if (!exists(tls.clientCert)) errs.push(fieldError.invalid(`${PATH}.tlsConfig.clientCert`, tls.clientCert, 'TLS client cert does not exist'));
  // "requires requires" is upstream's text.
  if (!tls.clientKey) errs.push(fieldError.invalid(`${PATH}.tlsConfig.clientKey`, 'nil', 'Using TLS requires requires clientKey'));
  else if (!exists(tls.clientKey)) errs.push(fieldError.invalid(`${PATH}.tlsConfig.clientKey`, tls.clientKey, 'TLS client key does not exist'));
  return errs;
}
