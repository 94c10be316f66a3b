/**
 * Reading a configuration file (AuthenticationConfiguration, EncryptionConfiguration, ...) the way
 * Kubernetes components read theirs: YAML or JSON, the `apiVersion` and `kind` looked up among the
 * kind's versions, and the body decoded strictly — an unknown or duplicated field fails the whole
 * file (`strict decoding error: unknown field "jwt[0].foo"`), as the strict codec factory of
 * k8s.io/apimachinery's serializer does.
 */
import type { z } from 'zod';
import { YamlSyntaxError, parseYamlDocuments } from '../codec/yaml.js';
import { DecodeTypeError, decodeWithSchema } from '../schema/decode.js';
import { structuralOf } from '../schema/structural.js';

/**
 * One served version of a configuration kind.
 * @category Configuration files
 */
export interface ConfigVersion {
  /** `apiserver.config.k8s.io/v1`, ... */
  readonly apiVersion: string;
  /** The fields of this version; unknown fields are refused. */
  readonly schema: z.ZodType;
}

/**
 * A version whose schema is built when a file of it is first decoded (`schema` is a getter calling
 * `schema`), as memkube declares its configuration kinds.
 */
export function lazyConfigVersion(apiVersion: string, schema: () => z.ZodType): ConfigVersion {
  return {
    apiVersion,
    get schema() {
      return schema();
    },
  };
}

/**
 * A configuration kind: its name and versions.
 * @category Configuration files
 */
export interface ConfigKind {
  readonly kind: string;
  readonly versions: readonly ConfigVersion[];
}

/** A decoded configuration object and the version it was written in. */
export interface DecodedConfig<T> {
  readonly apiVersion: string;
  readonly value: T;
}

/**
 * Thrown for a configuration text that cannot be decoded; the message is Kubernetes'.
 * @category Configuration files
 */
export class ConfigDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigDecodeError';
  }
}

/** The largest configuration text read, in bytes (3 MiB, as kube-apiserver bounds a request body). */
export const MAX_CONFIG_BYTES = 3 * 1024 * 1024;

/**
 * Decodes one configuration object of `kind` from YAML or JSON text (or an already parsed value).
 * Throws {@link ConfigDecodeError} for syntax errors, a missing or unknown `apiVersion`/`kind`,
 * a wrong type, and unknown or duplicated fields. The answer is the object as written
 * (`apiVersion` and `kind` included, so each version's schema declares them), `null`s dropped.
 */
export function decodeConfig<T>(input: string | unknown, kind: ConfigKind): DecodedConfig<T> {
  let value: unknown = input;
  let duplicates: readonly string[] = [];
  if (typeof input === 'string') {
    if (Buffer.byteLength(input) > MAX_CONFIG_BYTES) throw new ConfigDecodeError(`configuration is larger than ${MAX_CONFIG_BYTES} bytes`);
    let docs;
    try {
      docs = parseYamlDocuments(input);
    } catch (e) {
      throw new ConfigDecodeError(e instanceof YamlSyntaxError ? `error converting YAML to JSON: yaml: ${e.message}` : String(e));
    }
    if (docs.length === 0) throw new ConfigDecodeError("Object 'Kind' is missing in ''");
    value = docs[0]!.value;
    duplicates = docs[0]!.duplicateFields;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigDecodeError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const obj = value as Record<string, unknown>;
  const text = typeof input === 'string' ? input.trim() : JSON.stringify(obj);
  if (typeof obj.kind !== 'string' || obj.kind === '') throw new ConfigDecodeError(`Object 'Kind' is missing in '${text}'`);
  if (typeof obj.apiVersion !== 'string' || obj.apiVersion === '') throw new ConfigDecodeError(`Object 'apiVersion' is missing in '${text}'`);
  const version = kind.versions.find((v) => v.apiVersion === obj.apiVersion);
  if (obj.kind !== kind.kind || !version) {
    throw new ConfigDecodeError(`no kind ${JSON.stringify(obj.kind)} is registered for version ${JSON.stringify(obj.apiVersion)}`);
  }
  return { apiVersion: obj.apiVersion, value: decodeStrictly<T>(obj, version.schema, duplicates) };
}

/**
 * A parsed object decoded strictly against `schema`: Go's type errors, then every duplicated and
 * unknown field in one `strict decoding error: ...`, as a {@link ConfigDecodeError}.
 */
export function decodeStrictly<T>(value: unknown, schema: z.ZodType, duplicates: readonly string[] = []): T {
  let decoded;
  try {
    decoded = decodeWithSchema(value, structuralOf(schema));
  } catch (e) {
    if (e instanceof DecodeTypeError) throw new ConfigDecodeError(e.message);
    throw e;
  }
  const problems = [
    ...duplicates.map((path) => `json: duplicate field ${JSON.stringify(path)}`),
    ...decoded.unknownFields.map((path) => `unknown field ${JSON.stringify(path)}`),
  ];
  if (problems.length) throw new ConfigDecodeError(`strict decoding error: ${problems.join(', ')}`);
  return decoded.value as T;
}
