/**
 * Reading kube-apiserver's `--admission-control-config-file` as k8s.io/apiserver's
 * `ReadAdmissionConfiguration` does (pkg/admission/config.go): the file decoded strictly as an
 * AdmissionConfiguration, each plugin's `path` made relative to the file's directory, and the
 * legacy unversioned format (a bare ImagePolicyWebhook or PodNodeSelector configuration) still
 * accepted for those two plugins. `configFor` answers a plugin's configuration text as
 * `GetAdmissionPluginConfigurationFor` does: the embedded object first, else the file at `path`.
 */
import { readFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { parseYamlDocuments } from '../../codec/yaml.js';
import { ConfigDecodeError, decodeConfig } from '../decode.js';
import { AdmissionConfigurationKind, type AdmissionConfiguration } from './types.js';

/** One plugin's entry after reading: `path` resolved, `configuration` as JSON text. */
export interface ResolvedPluginConfiguration {
  readonly name: string;
  /** The file to read the configuration from, resolved against the configuration file's directory. */
  readonly path: string;
  /** The embedded configuration, as JSON; preferred to `path`. */
  readonly configuration?: string;
}

/** The plugin configurations of one admission configuration file. */
export interface AdmissionPluginConfigs {
  readonly plugins: readonly ResolvedPluginConfiguration[];
  /**
   * The configuration text of the named plugin: the embedded object (JSON) when there is one, else
   * the content of its `path`; `undefined` when the file names no configuration for it. The first
   * entry with that name counts. Throws {@link AdmissionPluginConfigReadError} for a `path` that
   * cannot be read.
   */
  configFor(pluginName: string): string | undefined;
}

/** How files are read; the real file system by default (tests inject their own). */
export interface AdmissionConfigIo {
  /** The text of the file at `path`. */
  readFile(path: string): string;
  /** The directory relative paths are resolved against. */
  cwd(): string;
}

const realIo: AdmissionConfigIo = { readFile: (path) => readFileSync(path, 'utf8'), cwd: () => process.cwd() };

/** An admission configuration file kube-apiserver would refuse; the message is its own. */
export class AdmissionConfigFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdmissionConfigFileError';
  }
}

/** A plugin's `path` that cannot be read (kube-apiserver exits with this message). */
export class AdmissionPluginConfigReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdmissionPluginConfigReadError';
  }
}

/** An empty configuration: what no `--admission-control-config-file` means. */
export const NO_ADMISSION_PLUGIN_CONFIGS: AdmissionPluginConfigs = { plugins: [], configFor: () => undefined };

/** The plugins that read an unversioned file before AdmissionConfiguration existed. */
const LEGACY_PLUGINS = new Set(['ImagePolicyWebhook', 'PodNodeSelector']);

const GO_ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
  EMFILE: 'too many open files',
};

interface NodeFsError {
  readonly code?: string;
  readonly errno?: number;
  readonly message?: string;
}

/** The operation Go's `os.ReadFile` fails in: reading a directory opens fine and fails to read. */
function goOp(e: NodeFsError): string {
  return e.code === 'EISDIR' ? 'read' : 'open';
}

/** Go's `*fs.PathError` text for a failed `os.ReadFile`: `open /x: no such file or directory`. */
export function goReadFileError(path: string, e: unknown): string {
  const err = (e ?? {}) as NodeFsError;
  const text = (err.code && GO_ERRNO_TEXT[err.code]) ?? err.message ?? String(e);
  return `${goOp(err)} ${path}: ${text}`;
}

/** Go's `%#v` of that `*fs.PathError`: `&fs.PathError{Op:"open", Path:"/x", Err:0x2}`. */
function goPathErrorGoString(path: string, e: unknown): string {
  const err = (e ?? {}) as NodeFsError;
  const errno = typeof err.errno === 'number' ? `0x${Math.abs(err.errno).toString(16)}` : JSON.stringify(err.message ?? String(e));
  return `&fs.PathError{Op:${JSON.stringify(goOp(err))}, Path:${JSON.stringify(path)}, Err:${errno}}`;
}

/** Go's `makeAbs`: an absolute path stays, a relative one joins the base (the working directory for `''` or `.`). */
function makeAbs(path: string, base: string, io: AdmissionConfigIo): string {
  if (isAbsolute(path)) return path;
  return join(base === '' || base === '.' ? io.cwd() : base, path);
}

function provider(plugins: readonly ResolvedPluginConfiguration[], io: AdmissionConfigIo): AdmissionPluginConfigs {
  return {
    plugins,
    configFor(pluginName) {
      const entry = plugins.find((p) => p.name === pluginName);
      if (!entry) return undefined;
      if (entry.configuration !== undefined) return entry.configuration;
      if (entry.path === '') return undefined;
      try {
        return io.readFile(entry.path);
      } catch (e) {
        throw new AdmissionPluginConfigReadError(`Couldn't open admission plugin configuration ${entry.path}: ${goPathErrorGoString(entry.path, e)}`);
      }
    },
  };
}

/** The decode failures after which kube-apiserver looks for the legacy format: no kind, no version, or one not registered. */
function isTypeError(e: ConfigDecodeError): boolean {
  return /^Object '(Kind|apiVersion)' is missing in /.test(e.message) || e.message.startsWith('no kind ');
}

/** The top-level keys of a YAML or JSON object; undefined when the text is not one. */
function topLevelKeys(text: string): Set<string> | undefined {
  try {
    const docs = parseYamlDocuments(text);
    const value = docs[0]?.value ?? {};
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    return new Set(Object.keys(value));
  } catch {
    return undefined;
  }
}

/**
 * Reads the admission configuration file at `configFilePath` for the enabled plugins
 * `pluginNames` (they matter only for the legacy format). No file (`''`) is no configuration.
 * Throws {@link AdmissionConfigFileError} with kube-apiserver's message otherwise.
 */
export function readAdmissionConfiguration(pluginNames: readonly string[], configFilePath: string, io: AdmissionConfigIo = realIo): AdmissionPluginConfigs {
  if (configFilePath === '') return NO_ADMISSION_PLUGIN_CONFIGS;
  let data: string;
  try {
    data = io.readFile(configFilePath);
  } catch (e) {
    throw new AdmissionConfigFileError(
      `unable to read admission control configuration from ${JSON.stringify(configFilePath)} [${goReadFileError(configFilePath, e)}]`,
    );
  }
  return parseAdmissionConfiguration(pluginNames, configFilePath, data, io);
}

/** {@link readAdmissionConfiguration} for a text already read from `configFilePath`. */
export function parseAdmissionConfiguration(
  pluginNames: readonly string[],
  configFilePath: string,
  data: string,
  io: AdmissionConfigIo = realIo,
): AdmissionPluginConfigs {
  let decoded: AdmissionConfiguration;
  try {
    decoded = decodeConfig<AdmissionConfiguration>(data, AdmissionConfigurationKind).value;
  } catch (e) {
    if (!(e instanceof ConfigDecodeError)) throw e;
    if (!isTypeError(e)) throw new AdmissionConfigFileError(e.message);
    // Tolerated only for a file that looks like one of the two legacy plugin configurations.
    const keys = topLevelKeys(data);
    if (!keys || !(keys.has('imagePolicy') || keys.has('podNodeSelectorPluginConfig'))) throw new AdmissionConfigFileError(e.message);
    const legacy = pluginNames.filter((name) => LEGACY_PLUGINS.has(name)).map((name) => ({ name, path: configFilePath }));
    return provider(legacy, io);
  }
  const baseDir = dirname(configFilePath);
  const plugins = (decoded.plugins ?? []).map((p): ResolvedPluginConfiguration => {
    const path = p.path ? makeAbs(p.path, baseDir, io) : '';
    return {
      name: p.name ?? '',
      path,
      ...(p.configuration !== undefined ? { configuration: JSON.stringify(p.configuration) } : {}),
    };
  });
  return provider(plugins, io);
}
