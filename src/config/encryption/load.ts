/**
 * Loading `--encryption-provider-config` as kube-apiserver does (k8s.io/apiserver
 * pkg/server/options/encryptionconfig/config.go `LoadEncryptionConfig`): decode strictly, default,
 * validate, then map each resource to its providers — entries in order, a resource named in two
 * entries gets the providers of both (the earlier first), and a resource after an earlier `*.<group>`
 * or `*.*` is refused because that rule would mask it. The answer is the storage's plan.
 */
import { readFile, stat } from 'node:fs/promises';
import { aggregateMessage } from '../../machinery/field-errors.js';
import { goQuote } from '../../util/go-format.js';
import { parseGoDuration } from '../../util/go-time.js';
import type { EncryptionPlan, EncryptionProvider, EncryptionRule } from '../../storage/encryption/plan.js';
import { ConfigDecodeError, MAX_CONFIG_BYTES, decodeConfig } from '../decode.js';
import { EncryptionConfigurationKind, type EncryptionConfiguration, type KeysConfiguration, type ProviderConfiguration } from './types.js';
import { decodeStdBase64, parseGroupResource, validateEncryptionConfiguration, withDefaults, type GroupResource } from './validation.js';

/**
 * Thrown for a configuration kube-apiserver would refuse to start with; the message is its.
 * @category Storage and encryption
 */
export class EncryptionConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EncryptionConfigError';
  }
}

/**
 * Options of {@link loadEncryptionConfig}.
 * @category Storage and encryption
 */
export interface LoadEncryptionOptions {
  /** The file's path, for messages; `(inline)` when the configuration did not come from a file. */
  path?: string;
  /** Validate as for kube-apiserver's automatic reload (KMS v1 names must be unique too). */
  reload?: boolean;
}

/** `gr.String()`, with `*.` for every resource of the core group (`grYAMLString`). */
function groupResourceText(gr: GroupResource): string {
  if (gr.group === '' && gr.resource === '*') return '*.';
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

/** Decodes and validates an EncryptionConfiguration (text or object); throws {@link EncryptionConfigError}. */
export function decodeEncryptionConfig(input: string | EncryptionConfiguration, options: LoadEncryptionOptions = {}): EncryptionConfiguration {
  const path = options.path ?? '(inline)';
  if (input === '')
    throw new EncryptionConfigError(
      `error while parsing file: error while loading file: encryption provider configuration file ${JSON.stringify(path)} is empty`,
    );
  let config: EncryptionConfiguration;
  try {
    config = decodeConfig<EncryptionConfiguration>(input, EncryptionConfigurationKind).value;
  } catch (e) {
    if (!(e instanceof ConfigDecodeError)) throw e;
    throw new EncryptionConfigError(`error while parsing file: error decoding encryption provider configuration file ${JSON.stringify(path)}: ${e.message}`);
  }
  // metav1.Duration decodes with time.ParseDuration: a bad timeout fails the decoding.
  for (const entry of config.resources) {
    for (const p of entry.providers) {
      if (p.kms?.timeout !== undefined && parseGoDuration(p.kms.timeout) === undefined) {
        throw new EncryptionConfigError(
          `error while parsing file: error decoding encryption provider configuration file ${JSON.stringify(path)}: time: invalid duration ${goQuote(p.kms.timeout)}`,
        );
      }
    }
  }
  const defaulted = withDefaults(config);
  const errs = validateEncryptionConfiguration(defaulted, options.reload);
  if (errs.length) throw new EncryptionConfigError(`error while parsing file: ${aggregateMessage(errs)}`);
  return defaulted;
}

function keyedProvider(type: 'aescbc' | 'aesgcm' | 'secretbox', config: KeysConfiguration): EncryptionProvider {
  // Validation has checked names, base64 and sizes.
  return { type, keys: config.keys.map((k) => ({ name: k.name, secret: decodeStdBase64(k.secret)! })) };
}

function providerPlan(p: ProviderConfiguration): EncryptionProvider {
  if (p.aesgcm) return keyedProvider('aesgcm', p.aesgcm);
  if (p.aescbc) return keyedProvider('aescbc', p.aescbc);
  if (p.secretbox) return keyedProvider('secretbox', p.secretbox);
  if (p.kms) {
    throw new EncryptionConfigError(
      `error while building transformers: KMS provider ${JSON.stringify(p.kms.name)} cannot be used: memkube has no KMS plugin to reach at ${JSON.stringify(p.kms.endpoint)}; use aescbc, aesgcm, secretbox or identity`,
    );
  }
  if (p.identity) return { type: 'identity' };
  throw new EncryptionConfigError(
    'error while building transformers: provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity',
  );
}

/** The plan of a decoded, validated configuration; throws for masked resources and KMS providers. */
export function encryptionPlanOf(config: EncryptionConfiguration): EncryptionPlan {
  const byResource = new Map<string, { gr: GroupResource; providers: EncryptionProvider[] }>();
  const id = (gr: GroupResource) => `${gr.group}/${gr.resource}`;
  for (const entry of config.resources) {
    const providers = entry.providers.map(providerPlan);
    for (const resource of entry.resources) {
      const gr = parseGroupResource(resource);
      for (const mask of [
        { group: gr.group, resource: '*' },
        { group: '*', resource: '*' },
      ]) {
        if (byResource.has(id(mask))) {
          throw new EncryptionConfigError(
            `error while building transformers: resource ${JSON.stringify(groupResourceText(gr))} is masked by earlier rule ${JSON.stringify(groupResourceText(mask))}`,
          );
        }
      }
      const rule = byResource.get(id(gr));
      if (rule) rule.providers.push(...providers);
      else byResource.set(id(gr), { gr, providers: [...providers] });
    }
  }
  const rules: EncryptionRule[] = [...byResource.values()].map(({ gr, providers }) => ({ group: gr.group, resource: gr.resource, providers }));
  return { rules };
}

/**
 * Decodes, validates and maps an EncryptionConfiguration (its YAML or JSON text, or the object)
 * to the storage's plan. Throws {@link EncryptionConfigError} with kube-apiserver's message.
 * @category Storage and encryption
 */
export function loadEncryptionConfig(input: string | EncryptionConfiguration, options: LoadEncryptionOptions = {}): EncryptionPlan {
  return encryptionPlanOf(decodeEncryptionConfig(input, options));
}

/** Go's `os.ReadFile` error texts for the usual failures. */
function readErrorText(path: string, e: unknown): string {
  const code = (e as { code?: string }).code;
  if (code === 'ENOENT') return `open ${path}: no such file or directory`;
  if (code === 'EACCES') return `open ${path}: permission denied`;
  if (code === 'EISDIR') return `read ${path}: is a directory`;
  return e instanceof Error ? e.message : String(e);
}

/**
 * Reads `--encryption-provider-config FILE` and checks it as kube-apiserver does at start (messages
 * name the file); answers its text. A file larger than the decoder reads is refused unread.
 */
export async function readEncryptionConfigFile(path: string): Promise<string> {
  let text: string;
  try {
    const info = await stat(path);
    if (info.isDirectory()) throw Object.assign(new Error('is a directory'), { code: 'EISDIR' });
    if (info.size > MAX_CONFIG_BYTES) {
      throw new EncryptionConfigError(
        `error while parsing file: error decoding encryption provider configuration file ${JSON.stringify(path)}: configuration is larger than ${MAX_CONFIG_BYTES} bytes`,
      );
    }
    text = await readFile(path, 'utf8');
  } catch (e) {
    if (e instanceof EncryptionConfigError) throw e;
    throw new EncryptionConfigError(
      `error while parsing file: error while loading file: error reading encryption provider configuration file ${JSON.stringify(path)}: ${readErrorText(path, e)}`,
    );
  }
  loadEncryptionConfig(text, { path });
  return text;
}
