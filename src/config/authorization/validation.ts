/**
 * Validation of an AuthorizationConfiguration, with k8s.io/apiserver's field paths and messages
 * (`pkg/apis/apiserver/validation/validation.go` ValidateAuthorizationConfiguration and
 * ValidateWebhookConfiguration). A webhook's own fields are reported under the authorizer's path
 * (`authorizers[0].timeout`), as upstream passes the authorizer's path down.
 */
import { statSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { fieldError, GoPrinted, type FieldError } from '../../machinery/field-errors.js';
import { isDNS1123Subdomain } from '../../schema/validation/names.js';
import { compareGoStrings, goQuote } from '../../util/go-format.js';
import type { AuthorizationConfigurationDocument, WebhookConfigurationDocument } from './defaults.js';
import { goDurationString } from './duration.js';
import { compileMatchConditions } from './match-conditions.js';
import { AUTHORIZATION_MODES, REPEATABLE_AUTHORIZER_TYPES } from './types.js';

/** What `os.Stat` finds at a path: a regular file, something else, or Go's error text. */
export type FileStat = { readonly regular: boolean } | { readonly error: string };

/** Options of {@link validateAuthorizationConfiguration}. */
export interface AuthorizationValidationOptions {
  /** The authorizer types accepted; kube-apiserver's modes by default. */
  readonly knownTypes?: readonly string[];
  /** The types that may appear more than once; `Webhook` by default. */
  readonly repeatableTypes?: readonly string[];
  /** Looks at a kubeconfig file; the real file system by default. */
  readonly statFile?: (path: string) => FileStat;
}

const GO_ERRNO_TEXT: Readonly<Record<string, string>> = {
  ENOENT: 'no such file or directory',
  EACCES: 'permission denied',
  ENOTDIR: 'not a directory',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'file name too long',
};

/** `os.Stat` of the real file system, with Go's `*PathError` text on failure (`stat /x: no such file or directory`). */
export function statWithGoErrors(path: string): FileStat {
  try {
    return { regular: statSync(path).isFile() };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    return { error: `stat ${path}: ${GO_ERRNO_TEXT[code] ?? (e as Error).message}` };
  }
}

/** Go's `%#v` of an `apiserver.WebhookConnectionInfo` (a set pointer prints as an address in Go; memkube prints a fixed one). */
function connectionInfoGoString(info: { readonly type: string; readonly kubeConfigFile?: string }): GoPrinted {
  const file = info.kubeConfigFile === undefined ? '(*string)(nil)' : '(*string)(0xc000000000)';
  return new GoPrinted(`apiserver.WebhookConnectionInfo{Type:${goQuote(info.type)}, KubeConfigFile:${file}}`);
}

/** ValidateWebhookConfiguration: `path` is the authorizer's path. */
export function validateWebhookConfiguration(w: WebhookConfigurationDocument, path: string, statFile: (path: string) => FileStat): FieldError[] {
  const errs: FieldError[] = [];
  const at = (name: string) => (path ? `${path}.${name}` : name);
  const thirtySeconds = 30n * 1_000_000_000n;
  if (w.timeout === 0n) errs.push(fieldError.required(at('timeout')));
  else if (w.timeout > thirtySeconds || w.timeout < 0n) errs.push(fieldError.invalid(at('timeout'), goDurationString(w.timeout), 'must be > 0s and <= 30s'));

  if (w.authorizedTTL === 0n) errs.push(fieldError.required(at('authorizedTTL')));
  else if (w.authorizedTTL < 0n) errs.push(fieldError.invalid(at('authorizedTTL'), goDurationString(w.authorizedTTL), 'must be > 0s'));

  if (w.unauthorizedTTL === 0n) errs.push(fieldError.required(at('unauthorizedTTL')));
  else if (w.unauthorizedTTL < 0n) errs.push(fieldError.invalid(at('unauthorizedTTL'), goDurationString(w.unauthorizedTTL), 'must be > 0s'));

  if (w.subjectAccessReviewVersion === '') errs.push(fieldError.required(at('subjectAccessReviewVersion')));
  else if (w.subjectAccessReviewVersion !== 'v1' && w.subjectAccessReviewVersion !== 'v1beta1')
    errs.push(fieldError.notSupported(at('subjectAccessReviewVersion'), w.subjectAccessReviewVersion, ['v1', 'v1beta1']));

  if (w.matchConditionSubjectAccessReviewVersion === '') {
    if (w.matchConditions.length > 0)
      errs.push(fieldError.required(at('matchConditionSubjectAccessReviewVersion'), 'required if match conditions are specified'));
  } else if (w.matchConditionSubjectAccessReviewVersion !== 'v1') {
    errs.push(fieldError.notSupported(at('matchConditionSubjectAccessReviewVersion'), w.matchConditionSubjectAccessReviewVersion, ['v1']));
  }

  if (w.failurePolicy === '') errs.push(fieldError.required(at('failurePolicy')));
  else if (w.failurePolicy !== 'NoOpinion' && w.failurePolicy !== 'Deny')
    errs.push(fieldError.notSupported(at('failurePolicy'), w.failurePolicy, ['NoOpinion', 'Deny']));

  const info = w.connectionInfo;
  const filePath = at('connectionInfo.kubeConfigFile');
  switch (info.type) {
    case '':
      errs.push(fieldError.required(at('connectionInfo.type')));
      break;
    case 'InClusterConfig':
      if (info.kubeConfigFile !== undefined) errs.push(fieldError.invalid(filePath, info.kubeConfigFile, 'can only be set when type=KubeConfigFile'));
      break;
    case 'KubeConfigFile': {
      const file = info.kubeConfigFile ?? '';
      if (file === '') {
        errs.push(fieldError.required(filePath));
      } else if (!isAbsolute(file)) {
        errs.push(fieldError.invalid(filePath, file, 'must be an absolute path'));
      } else {
        const stat = statFile(file);
        if ('error' in stat) errs.push(fieldError.invalid(filePath, file, `error loading file: ${stat.error}`));
        else if (!stat.regular) errs.push(fieldError.invalid(filePath, file, 'must be a regular file'));
      }
      break;
    }
    default:
      errs.push(fieldError.notSupported(at('connectionInfo.type'), connectionInfoGoString(info), ['InClusterConfig', 'KubeConfigFile']));
  }

  errs.push(...compileMatchConditions(w.matchConditions, path).errors);
  return errs;
}

/**
 * ValidateAuthorizationConfiguration: at least one authorizer; each with a known type (a type other
 * than `Webhook` at most once), a unique DNS-subdomain name, and a `webhook` exactly when the type
 * is `Webhook`, whose settings are checked and match conditions compiled.
 */
export function validateAuthorizationConfiguration(config: AuthorizationConfigurationDocument, options: AuthorizationValidationOptions = {}): FieldError[] {
  const known = new Set(options.knownTypes ?? AUTHORIZATION_MODES);
  const repeatable = new Set(options.repeatableTypes ?? REPEATABLE_AUTHORIZER_TYPES);
  const statFile = options.statFile ?? statWithGoErrors;
  const errs: FieldError[] = [];
  if (config.authorizers.length === 0) errs.push(fieldError.required('authorizers', 'at least one authorization mode must be defined'));

  const seenTypes = new Set<string>();
  const seenNames = new Set<string>();
  config.authorizers.forEach((a, i) => {
    const path = `authorizers[${i}]`;
    if (a.type === '') {
      errs.push(fieldError.required(`${path}.type`));
      return;
    }
    if (!known.has(a.type)) {
      errs.push(fieldError.notSupported(`${path}.type`, a.type, [...known].sort(compareGoStrings)));
      return;
    }
    if (seenTypes.has(a.type) && !repeatable.has(a.type)) {
      errs.push(fieldError.duplicate(`${path}.type`, a.type));
      return;
    }
    seenTypes.add(a.type);

    if (a.name === '') errs.push(fieldError.required(`${path}.name`));
    else if (seenNames.has(a.name)) errs.push(fieldError.duplicate(`${path}.name`, a.name));
    else {
      const problems = isDNS1123Subdomain(a.name);
      if (problems.length > 0) errs.push(fieldError.invalid(`${path}.name`, a.name, `authorizer name is invalid: ${problems.join(', ')}`));
    }
    seenNames.add(a.name);

    if (a.type === 'Webhook') {
      if (a.webhook === undefined) {
        errs.push(fieldError.required(`${path}.webhook`, 'required when type=Webhook'));
        return;
      }
      errs.push(...validateWebhookConfiguration(a.webhook, path, statFile));
    } else if (a.webhook !== undefined) {
      errs.push(fieldError.invalid(`${path}.webhook`, 'non-null', 'may only be specified when type=Webhook'));
    }
  });
  return errs;
}
