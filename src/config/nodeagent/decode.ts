/**
 * Decoding a node agent configuration file as kubelet's codec does
 * (pkg/kubelet/kubeletconfig/util/codec/codec.go): YAML or JSON; `apiVersion`/`kind` one of the
 * kind's two names; wrong types and bad durations fail (`failed to decode: ...`); unknown and
 * duplicated fields are a strict decoding error, after which kubelet decodes v1beta1 again
 * leniently and only warns (`Using lenient decoding as strict decoding failed`). memkube keeps
 * that by default and can refuse instead (`strict`). Drop-in files are read another way
 * (`DecodeKubeletConfigurationIntoJSON`): as plain JSON objects, duplicated fields refused,
 * unknown ones passed on, types checked only once every drop-in is merged.
 */
import type { z } from 'zod';
import { YamlSyntaxError, parseYamlDocuments } from '../../codec/yaml.js';
import { DecodeTypeError, decodeWithSchema } from '../../schema/decode.js';
import { structuralOf } from '../../schema/structural.js';
import { ConfigDecodeError, MAX_CONFIG_BYTES } from '../decode.js';
import { decodeLoggingConfiguration } from '../logging/decode.js';
import { formatGoDuration, goParseDuration } from './go-duration.js';
import { DURATION_FIELDS, NodeAgentConfigurationKinds, NodeAgentConfigurationSchema, type NodeAgentConfiguration } from './types.js';

/** A decoded file and what lenient decoding let through. */
export interface DecodedNodeAgentConfiguration {
  readonly config: NodeAgentConfiguration;
  /** `Using lenient decoding as strict decoding failed: strict decoding error: unknown field "x"`, ... */
  readonly warnings: readonly string[];
}

/** Options of {@link decodeNodeAgentConfiguration}. */
export interface NodeAgentDecodeOptions {
  /** Refuse unknown and duplicated fields instead of warning (kubelet warns). */
  readonly strict?: boolean;
}

interface ParsedObject {
  readonly object: Record<string, unknown>;
  readonly duplicates: readonly string[];
}

/** The first YAML/JSON document as an object with `apiVersion` and `kind`, with the serializer's messages. */
function parseObject(text: string): ParsedObject {
  if (Buffer.byteLength(text) > MAX_CONFIG_BYTES) throw new ConfigDecodeError(`configuration is larger than ${MAX_CONFIG_BYTES} bytes`);
  let docs;
  try {
    docs = parseYamlDocuments(text);
  } catch (e) {
    throw new ConfigDecodeError(e instanceof YamlSyntaxError ? `error converting YAML to JSON: yaml: ${e.message}` : String(e));
  }
  const value = docs[0]?.value;
  const trimmed = text.trim();
  if (value === undefined) throw new ConfigDecodeError(`Object 'Kind' is missing in '${trimmed}'`);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigDecodeError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${Array.isArray(value) ? 'array' : typeof value} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
    );
  }
  const object = value as Record<string, unknown>;
  if (typeof object.kind !== 'string' || object.kind === '') throw new ConfigDecodeError(`Object 'Kind' is missing in '${trimmed}'`);
  if (typeof object.apiVersion !== 'string' || object.apiVersion === '') throw new ConfigDecodeError(`Object 'apiVersion' is missing in '${trimmed}'`);
  return { object, duplicates: docs[0]!.duplicateFields };
}

/** The schema of the object's `apiVersion`/`kind`; throws the scheme's `no kind ... is registered` otherwise. */
function schemaFor(object: Record<string, unknown>): z.ZodType {
  const kind = NodeAgentConfigurationKinds.find((k) => k.kind === object.kind);
  const version = kind?.versions.find((v) => v.apiVersion === object.apiVersion);
  if (!version) throw new ConfigDecodeError(`no kind ${JSON.stringify(object.kind)} is registered for version ${JSON.stringify(object.apiVersion)}`);
  return version.schema;
}

/** `metav1.Duration.UnmarshalJSON` of every duration field: Go's parse error, else the value in `String()` form. */
function normalizeDurations(config: Record<string, unknown>): void {
  const fix = (holder: Record<string, unknown> | undefined, field: string) => {
    const text = holder?.[field];
    if (typeof text !== 'string') return;
    const parsed = goParseDuration(text);
    if (!parsed.ok) throw new ConfigDecodeError(parsed.error);
    holder![field] = formatGoDuration(parsed.nanos);
  };
  for (const field of DURATION_FIELDS) fix(config, field);
  const authn = config.authentication as Record<string, Record<string, unknown>> | undefined;
  fix(authn?.webhook, 'cacheTTL');
  const authz = config.authorization as Record<string, Record<string, unknown>> | undefined;
  fix(authz?.webhook, 'cacheAuthorizedTTL');
  fix(authz?.webhook, 'cacheUnauthorizedTTL');
  fix(config.crashLoopBackOff as Record<string, unknown> | undefined, 'maxContainerRestartPeriod');
}

/** The logging section's own decoding checks (flush frequency, verbosity, buffer sizes); unknown fields are the caller's. */
function checkLogging(raw: unknown): void {
  if (raw === undefined || raw === null) return;
  try {
    decodeLoggingConfiguration(raw);
  } catch (e) {
    if (e instanceof ConfigDecodeError && e.message.startsWith('strict decoding error:')) return;
    throw e;
  }
}

/**
 * Decodes a parsed object against the kind's fields leniently: wrong types and durations throw
 * {@link ConfigDecodeError}; unknown fields are dropped and returned.
 */
function decodeFields(object: Record<string, unknown>, schema: z.ZodType): { config: NodeAgentConfiguration; unknown: string[] } {
  let decoded;
  try {
    decoded = decodeWithSchema(object, structuralOf(schema));
  } catch (e) {
    if (e instanceof DecodeTypeError) throw new ConfigDecodeError(e.message);
    throw e;
  }
  checkLogging(object.logging);
  const config = decoded.value as Record<string, unknown>;
  normalizeDurations(config);
  return { config: config as NodeAgentConfiguration, unknown: decoded.unknownFields };
}

/**
 * Decodes a configuration file's text. Throws {@link ConfigDecodeError} with the serializer's
 * message (without kubelet's `failed to decode: ` prefix, which the loader adds).
 */
export function decodeNodeAgentConfiguration(text: string, options: NodeAgentDecodeOptions = {}): DecodedNodeAgentConfiguration {
  const { object, duplicates } = parseObject(text);
  const { config, unknown } = decodeFields(object, schemaFor(object));
  const problems = [
    ...duplicates.map((path) => `json: duplicate field ${JSON.stringify(path)}`),
    ...unknown.map((path) => `unknown field ${JSON.stringify(path)}`),
  ];
  if (problems.length === 0) return { config, warnings: [] };
  const strictError = `strict decoding error: ${problems.join(', ')}`;
  if (options.strict) throw new ConfigDecodeError(strictError);
  return { config, warnings: [`Using lenient decoding as strict decoding failed: ${strictError}`] };
}

/** A drop-in file read as JSON: its object, `apiVersion` and `kind`. */
export interface DropInObject {
  readonly object: Record<string, unknown>;
  readonly apiVersion: string;
  readonly kind: string;
}

/**
 * Reads a drop-in file's text as kubelet does (into an unstructured object): the object with its
 * `apiVersion` and `kind`, a duplicated field refused (`strict decoding error: ...`), anything
 * else passed on for the merge.
 */
export function decodeDropInObject(text: string): DropInObject {
  const { object, duplicates } = parseObject(text);
  if (duplicates.length > 0) {
    throw new ConfigDecodeError(`strict decoding error: ${duplicates.map((p) => `json: duplicate field ${JSON.stringify(p)}`).join(', ')}`);
  }
  return { object, apiVersion: object.apiVersion as string, kind: object.kind as string };
}

/** Whether a drop-in names the kind (kubelet's `KubeletConfiguration`, or memkube's name of it). */
export function isNodeAgentConfigurationKind(apiVersion: string, kind: string): boolean {
  return NodeAgentConfigurationKinds.some((k) => k.kind === kind && k.versions.some((v) => v.apiVersion === apiVersion));
}

/**
 * The merged JSON of the base configuration and its drop-ins into a configuration, as
 * `json.Unmarshal` does there: wrong types and durations throw {@link ConfigDecodeError},
 * unknown fields are dropped silently.
 */
export function decodeMergedConfiguration(object: Record<string, unknown>): NodeAgentConfiguration {
  const { apiVersion, kind, ...fields } = object;
  const { config } = decodeFields(
    { ...fields, apiVersion: NodeAgentConfigurationKinds[0]!.versions[0]!.apiVersion, kind: NodeAgentConfigurationKinds[0]!.kind },
    NodeAgentConfigurationSchema(),
  );
  // The names the files used are kept: they do not change what the configuration says.
  return {
    ...config,
    ...(typeof apiVersion === 'string' && typeof kind === 'string' && isNodeAgentConfigurationKind(apiVersion, kind) ? { apiVersion, kind } : {}),
  } as NodeAgentConfiguration;
}
