/**
 * EncryptionConfiguration's defaults and validation, with kube-apiserver's field paths and
 * messages (k8s.io/apiserver pkg/apis/apiserver/v1/defaults.go `SetDefaults_KMSConfiguration`,
 * pkg/apis/apiserver/validation/validation_encryption.go `ValidateEncryptionConfiguration`).
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { GoPrinted } from '../../machinery/field-errors.js';
import { goDurationText, parseGoDuration } from '../../util/go-time.js';
import { goParseURL } from '../../util/go-url.js';
import type { EncryptionConfiguration, KMSConfiguration, ProviderConfiguration, KeysConfiguration } from './types.js';

const AES_KEY_SIZES = [16, 24, 32];
const SECRETBOX_KEY_SIZES = [32];

/** kube-apiserver's KMS defaults: a 3s timeout, apiVersion v1, a cache of 1000 for v1. */
export function defaultKms(kms: KMSConfiguration): KMSConfiguration {
  const apiVersion = kms.apiVersion || 'v1';
  return {
    ...kms,
    apiVersion,
    timeout: kms.timeout ?? '3s',
    ...(kms.cachesize === undefined && apiVersion === 'v1' ? { cachesize: 1000 } : {}),
  };
}

/** The configuration with every KMS provider defaulted. */
export function withDefaults(config: EncryptionConfiguration): EncryptionConfiguration {
  return {
    ...config,
    resources: config.resources.map((r) => ({
      ...r,
      providers: r.providers.map((p) => (p.kms ? { ...p, kms: defaultKms(p.kms) } : p)),
    })),
  };
}

/** A group and resource, as `schema.ParseGroupResource` splits `deployments.apps` at its first dot. */
export interface GroupResource {
  readonly group: string;
  readonly resource: string;
}

/** `schema.ParseGroupResource`. */
export function parseGroupResource(text: string): GroupResource {
  const dot = text.indexOf('.');
  return dot < 0 ? { group: '', resource: text } : { group: text.slice(dot + 1), resource: text.slice(0, dot) };
}

/** Go's `base64.StdEncoding.DecodeString`: padded, standard alphabet; CR and LF are skipped. */
export function decodeStdBase64(text: string): Uint8Array | undefined {
  const s = text.replace(/[\r\n]/g, '');
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) return undefined;
  return new Uint8Array(Buffer.from(s, 'base64'));
}

/**
 * Validates a defaulted configuration; `reload` as kube-apiserver's automatic reload (KMS names unique).
 * @category Storage and encryption
 */
export function validateEncryptionConfiguration(config: EncryptionConfiguration, reload = false): FieldError[] {
  const root = 'resources';
  if (config.resources.length === 0) return [fieldError.required(root, `at least one ${root} is required`)];
  const errs: FieldError[] = [];
  const kmsNames = new Set<string>();
  config.resources.forEach((conf, i) => {
    const r = child(index(root, i), 'resources');
    const p = child(index(root, i), 'providers');
    if (conf.resources.length === 0) errs.push(fieldError.required(r, `at least one ${r} is required`));
    errs.push(...validateResourceOverlap(conf.resources, r), ...validateResourceNames(conf.resources, r));
    if (conf.providers.length === 0) errs.push(fieldError.required(p, `at least one ${p} is required`));
    conf.providers.forEach((provider, j) => {
      const path = index(p, j);
      errs.push(...validateSingleProvider(provider, path));
      // One branch per provider, in kube-apiserver's order: kms, aesgcm, aescbc, secretbox.
      if (provider.kms) {
        errs.push(...validateKms(provider.kms, child(path, 'kms'), kmsNames, reload));
        kmsNames.add(provider.kms.name);
      } else if (provider.aesgcm) errs.push(...validateKeys(provider.aesgcm, `${path}.aesgcm.keys`, AES_KEY_SIZES));
      else if (provider.aescbc) errs.push(...validateKeys(provider.aescbc, `${path}.aescbc.keys`, AES_KEY_SIZES));
      else if (provider.secretbox) errs.push(...validateKeys(provider.secretbox, `${path}.secretbox.keys`, SECRETBOX_KEY_SIZES));
    });
  });
  return errs;
}

function validateResourceOverlap(resources: readonly string[], path: string): FieldError[] {
  if (resources.length < 2) return [];
  const parsed = resources.map(parseGroupResource);
  let overlap = false;
  let duplicate = false;
  parsed.forEach((r1, i) =>
    parsed.forEach((r2, j) => {
      if (i === j) return;
      const same = r1.group === r2.group && r1.resource === r2.resource;
      if (same && !duplicate) {
        duplicate = true;
        return;
      }
      if (overlap) return;
      if (r1.group === '*' && r1.resource === '*') overlap = true;
      else if (r1.group === r2.group && (r1.resource === '*' || r2.resource === '*')) overlap = true;
    }),
  );
  const errs: FieldError[] = [];
  if (duplicate) errs.push(fieldError.invalid(path, resources, 'the same resource cannot be specified multiple times'));
  if (overlap) {
    errs.push(
      fieldError.invalid(
        path,
        resources,
        "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked",
      ),
    );
  }
  return errs;
}

const NON_REST_RESOURCES = new Set(['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations']);

function validateResourceNames(resources: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  resources.forEach((res, j) => {
    const at = index(path, j);
    const gr = parseGroupResource(res);
    let detail: string | undefined;
    if (res.toLowerCase() !== res) detail = 'resource name should not contain capital letters';
    else if (res === '*') detail = "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources";
    else if (NON_REST_RESOURCES.has(res)) detail = 'resources which do not have REST API/s cannot be encrypted';
    else if (gr.group === 'events.k8s.io') {
      detail = "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file";
    } else if (gr.group === 'extensions') detail = "'extensions' group has been removed and cannot be used for encryption";
    else if (gr.group === '*' && gr.resource !== '*') detail = 'encrypting the same resource across groups is not supported';
    if (detail) errs.push(fieldError.invalid(at, res, detail));
  });
  return errs;
}

/** The provider as Go's json.Marshal prints the internal type in a field error (field names, no tags). */
function goProviderJson(p: ProviderConfiguration): GoPrinted {
  const keys = (c: KeysConfiguration | undefined) => (c ? { Keys: c.keys.map((k) => ({ Name: k.name, Secret: k.secret })) } : null);
  const kms = p.kms
    ? {
        APIVersion: p.kms.apiVersion ?? '',
        Name: p.kms.name,
        CacheSize: p.kms.cachesize ?? null,
        Endpoint: p.kms.endpoint,
        Timeout: p.kms.timeout === undefined ? null : durationText(p.kms.timeout),
      }
    : null;
  const value = { AESGCM: keys(p.aesgcm), AESCBC: keys(p.aescbc), Secretbox: keys(p.secretbox), Identity: p.identity ? {} : null, KMS: kms };
  return new GoPrinted(JSON.stringify(value));
}

/** A decoded duration as Go prints it (`3000ms` is `3s`); the decoder has checked the syntax. */
function durationText(text: string): string {
  const ns = parseGoDuration(text);
  return ns === undefined ? text : goDurationText(ns);
}

function validateSingleProvider(provider: ProviderConfiguration, path: string): FieldError[] {
  const found = [provider.kms, provider.aesgcm, provider.aescbc, provider.secretbox, provider.identity].filter((p) => p !== undefined).length;
  if (found === 0) {
    return [
      fieldError.invalid(path, goProviderJson(provider), 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity'),
    ];
  }
  if (found > 1) {
    return [
      fieldError.invalid(path, goProviderJson(provider), 'more than one provider specified in a single element, should split into different list elements'),
    ];
  }
  return [];
}

function validateKeys(config: KeysConfiguration, path: string, sizes: readonly number[]): FieldError[] {
  if (config.keys.length === 0) return [fieldError.required(path, 'at least one keys is required')];
  const errs: FieldError[] = [];
  config.keys.forEach((key, i) => {
    const at = index(path, i);
    if (key.name === '') errs.push(fieldError.required(child(at, 'name'), 'name is a mandatory field for a key'));
    if (key.secret === '') {
      errs.push(fieldError.required(child(at, 'secret'), 'secret is a mandatory field for a key'));
      return;
    }
    const secret = decodeStdBase64(key.secret);
    if (!secret) {
      errs.push(fieldError.invalid(child(at, 'secret'), 'REDACTED', 'secrets must be base64 encoded'));
      return;
    }
    if (!sizes.includes(secret.length)) {
      errs.push(
        fieldError.invalid(child(at, 'secret'), 'REDACTED', `secret is not of the expected length, got ${secret.length}, expected one of [${sizes.join(' ')}]`),
      );
    }
  });
  return errs;
}

function validateKms(kms: KMSConfiguration, path: string, names: ReadonlySet<string>, reload: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const apiVersion = kms.apiVersion ?? '';
  // The name.
  const namePath = child(path, 'name');
  if (kms.name === '') errs.push(fieldError.required(namePath, 'name is a mandatory field for a provider'));
  if (apiVersion !== 'v1' && kms.name.includes(':')) {
    errs.push(fieldError.invalid(namePath, kms.name, `invalid KMS provider name ${kms.name}, must not contain ':'`));
  }
  if ((reload || apiVersion !== 'v1') && names.has(kms.name)) {
    errs.push(fieldError.invalid(namePath, kms.name, `duplicate KMS provider name ${kms.name}, names must be unique`));
  }
  // The timeout (defaulted, so present).
  const timeout = parseGoDuration(kms.timeout ?? '3s') ?? 0n;
  if (timeout <= 0n) errs.push(fieldError.invalid(child(path, 'timeout'), goDurationText(timeout), 'timeout should be a positive value'));
  // The endpoint.
  const endpointPath = child(path, 'endpoint');
  if (kms.endpoint === '') errs.push(fieldError.invalid(endpointPath, '', 'endpoint is a mandatory field for a kms'));
  else {
    const parsed = goParseURL(kms.endpoint);
    if (!parsed.ok) errs.push(fieldError.invalid(endpointPath, kms.endpoint, `invalid endpoint for kms provider, error: ${parsed.error}`));
    else if (parsed.url.scheme !== 'unix') {
      errs.push(
        fieldError.invalid(endpointPath, kms.endpoint, `unsupported scheme ${JSON.stringify(parsed.url.scheme)} for KMS provider, only unix is supported`),
      );
    }
  }
  // The cache size.
  const cachePath = child(path, 'cachesize');
  if (apiVersion !== 'v1' && kms.cachesize !== undefined) errs.push(fieldError.invalid(cachePath, kms.cachesize, 'cachesize is not supported in v2'));
  if (apiVersion === 'v1' && kms.cachesize === 0) errs.push(fieldError.invalid(cachePath, 0, 'cachesize should be a positive value, or negative to disable'));
  // The API version (kube-apiserver's message names the field, not the value).
  if (apiVersion !== 'v1' && apiVersion !== 'v2') {
    errs.push(fieldError.invalid(child(path, 'apiVersion'), apiVersion, 'unsupported apiVersion apiVersion for KMS provider, only v1 and v2 are supported'));
  }
  return errs;
}
