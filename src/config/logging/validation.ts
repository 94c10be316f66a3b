/**
 * `Validate` of component-base logs/api/v1/options.go: the format must be registered and its
 * feature on, verbosities fit klog's int32, vmodule is for the text format only, and the alpha
 * output options need LoggingAlphaOptions. Messages and field paths are upstream's.
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { JSON_LOG_FORMAT, TEXT_LOG_FORMAT, type LoggingConfiguration, type OutputRoutingOptions } from './types.js';
import { infoBufferBytes } from './values.js';

/** The logging feature gates: LoggingAlphaOptions (alpha, off by default) and LoggingBetaOptions (beta, on). */
export interface LoggingFeatureGates {
  readonly LoggingAlphaOptions?: boolean;
  readonly LoggingBetaOptions?: boolean;
}

const MAX_INT32 = 2147483647;

/** The registered formats and the feature each needs (`undefined`: stable). */
const FORMATS: ReadonlyMap<string, keyof LoggingFeatureGates | undefined> = new Map([
  [TEXT_LOG_FORMAT, undefined],
  [JSON_LOG_FORMAT, 'LoggingBetaOptions'],
]);

const enabled = (gates: LoggingFeatureGates, gate: keyof LoggingFeatureGates) => gates[gate] ?? gate === 'LoggingBetaOptions';

function routing(o: OutputRoutingOptions | undefined, gates: LoggingFeatureGates, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (o?.splitStream && !enabled(gates, 'LoggingAlphaOptions'))
    errs.push(fieldError.forbidden(child(path, 'splitStream'), 'Feature LoggingAlphaOptions is disabled'));
  if ((infoBufferBytes(o?.infoBufferSize) ?? 0) !== 0 && !enabled(gates, 'LoggingAlphaOptions')) {
    errs.push(fieldError.forbidden(child(path, 'infoBufferSize'), 'Feature LoggingAlphaOptions is disabled'));
  }
  return errs;
}

/**
 * The problems of a (defaulted) configuration; `fieldPath` is where it is embedded (`logging` in a
 * KubeletConfiguration), empty for a configuration on its own.
 */
export function validateLoggingConfiguration(c: LoggingConfiguration, gates: LoggingFeatureGates = {}, fieldPath = ''): FieldError[] {
  const errs: FieldError[] = [];
  const format = c.format ?? '';
  const formatPath = child(fieldPath, 'format');
  if (!FORMATS.has(format)) errs.push(fieldError.invalid(formatPath, format, 'Unsupported log format'));
  else {
    const gate = FORMATS.get(format);
    if (gate && !enabled(gates, gate)) errs.push(fieldError.forbidden(formatPath, `Log format ${format} is disabled, see ${gate} feature`));
  }
  if ((c.verbosity ?? 0) > MAX_INT32) errs.push(fieldError.invalid(child(fieldPath, 'verbosity'), c.verbosity, `Must be <= ${MAX_INT32}`));
  const vmodulePath = child(fieldPath, 'vmodule');
  const vmodule = c.vmodule ?? [];
  if (vmodule.length > 0 && format !== '' && format !== TEXT_LOG_FORMAT) errs.push(fieldError.forbidden(vmodulePath, 'Only supported for text log format'));
  vmodule.forEach((item, i) => {
    const pattern = item.filePattern ?? '';
    if (pattern === '') errs.push(fieldError.required(index(vmodulePath, i), 'File pattern must not be empty'));
    if (/[=,]/.test(pattern)) errs.push(fieldError.invalid(index(vmodulePath, i), pattern, 'File pattern must not contain equal sign or comma'));
    if ((item.verbosity ?? 0) > MAX_INT32) errs.push(fieldError.invalid(index(vmodulePath, i), item.verbosity, `Must be <= ${MAX_INT32}`));
  });
  const optionsPath = child(fieldPath, 'options');
  errs.push(...routing(c.options?.text, gates, child(optionsPath, 'text')), ...routing(c.options?.json, gates, child(optionsPath, 'json')));
  return errs;
}
