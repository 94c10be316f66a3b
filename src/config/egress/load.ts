/**
 * Loading `--egress-selector-config-file` as kube-apiserver does (k8s.io/apiserver
 * pkg/server/options/egress_selector.go and pkg/server/egressselector/config.go): the file must
 * exist, decodes strictly, validates, and becomes dialers; each failure with upstream's message.
 */
import { ConfigDecodeError, decodeConfig } from '../decode.js';
import { aggregateMessage } from '../../machinery/field-errors.js';
import { goReadFile, pathExists } from '../go-read-file.js';
import { buildEgressSelector, EgressSetupError, type EgressSelector } from './selector.js';
import { EgressSelectorConfigurationKind, internalEgressSelectorConfiguration, type EgressSelectorConfiguration } from './types.js';
import { validateEgressSelectorConfiguration } from './validation.js';

/** A configuration file kube-apiserver would refuse at start; the message is its own. */
export class EgressConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressConfigError';
  }
}

/**
 * `ReadEgressSelectorConfiguration`: the decoded configuration (`master` renamed `controlplane`).
 * Throws an {@link EgressConfigError} for an unreadable file and the decoder's message for a bad one.
 */
export function readEgressSelectorConfiguration(path: string): EgressSelectorConfiguration {
  const read = goReadFile(path);
  if (!read.ok) throw new EgressConfigError(`unable to read egress selector configuration from ${JSON.stringify(path)} [${read.error}]`);
  return parseEgressSelectorConfiguration(read.data.toString());
}

/** Decodes a configuration text (YAML or JSON); throws an {@link EgressConfigError} with the decoder's message. */
export function parseEgressSelectorConfiguration(text: string): EgressSelectorConfiguration {
  try {
    return internalEgressSelectorConfiguration(decodeConfig<EgressSelectorConfiguration>(text, EgressSelectorConfigurationKind).value);
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw new EgressConfigError(e.message);
    throw e;
  }
}

/**
 * What `--egress-selector-config-file` does at start: checks, reads, validates and builds the
 * dialers. Throws an {@link EgressConfigError} with kube-apiserver's message (`failed to validate
 * egress selector configuration: service.connection: Unsupported value: ...`).
 */
export function loadEgressSelectorConfiguration(path: string): EgressSelector {
  if (!pathExists(path)) throw new EgressConfigError(`egress-selector-config-file ${path} does not exist`);
  let config: EgressSelectorConfiguration;
  try {
    config = readEgressSelectorConfiguration(path);
  } catch (e) {
    if (e instanceof EgressConfigError) throw new EgressConfigError(`failed to read egress selector config: ${e.message}`);
    throw e;
  }
  const errs = validateEgressSelectorConfiguration(config);
  if (errs.length) throw new EgressConfigError(`failed to validate egress selector configuration: ${aggregateMessage(errs)}`);
  try {
    return buildEgressSelector(config);
  } catch (e) {
    // kube-apiserver prints the whole configuration struct (`%#v`) here; memkube leaves it out.
    if (e instanceof EgressSetupError) throw new EgressConfigError(`failed to setup egress selector: ${e.message}`);
    throw e;
  }
}
