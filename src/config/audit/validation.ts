/**
 * `ValidatePolicy` of k8s.io/apiserver `pkg/apis/audit/validation/validation.go`: known levels and
 * stages, non-resource URLs that start with `/` and end in their only `*`, group names that are
 * DNS subdomains, `resourceNames` only with resources, and no rule over both kinds of request.
 */
import { fieldError, index, child, type FieldError } from '../../machinery/field-errors.js';
import { isDNS1123Subdomain } from '../../schema/validation/names.js';
import { AUDIT_LEVELS, AUDIT_STAGES, type GroupResources, type Policy, type PolicyRule } from './types.js';

/** Every problem of a decoded policy, with upstream's field paths and texts. */
export function validatePolicy(policy: Policy): FieldError[] {
  const errs: FieldError[] = [...validateOmitStages(policy.omitStages, 'omitStages')];
  (policy.rules ?? []).forEach((rule, i) => errs.push(...validateRule(rule, index('rules', i))));
  return errs;
}

function validateRule(rule: PolicyRule, path: string): FieldError[] {
  const errs: FieldError[] = [
    ...validateLevel(rule.level, child(path, 'level')),
    ...validateNonResourceURLs(rule.nonResourceURLs ?? [], child(path, 'nonResourceURLs')),
    ...validateResources(rule.resources ?? [], child(path, 'resources')),
    ...validateOmitStages(rule.omitStages, child(path, 'omitStages')),
  ];
  const urls = rule.nonResourceURLs ?? [];
  if (urls.length > 0 && ((rule.resources?.length ?? 0) > 0 || (rule.namespaces?.length ?? 0) > 0)) {
    errs.push(fieldError.invalid(child(path, 'nonResourceURLs'), urls, 'rules cannot apply to both regular resources and non-resource URLs'));
  }
  return errs;
}

function validateLevel(level: string | undefined, path: string): FieldError[] {
  if (level === undefined || level === '') return [fieldError.required(path)];
  return (AUDIT_LEVELS as readonly string[]).includes(level) ? [] : [fieldError.notSupported(path, level, AUDIT_LEVELS)];
}

function validateNonResourceURLs(urls: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  urls.forEach((url, i) => {
    if (url === '*') return;
    if (!url.startsWith('/')) errs.push(fieldError.invalid(index(path, i), url, "non-resource URL rules must begin with a '/' character"));
    if (url !== '' && url.slice(0, -1).includes('*')) {
      errs.push(fieldError.invalid(index(path, i), url, "non-resource URL wildcards '*' must be the final character of the rule"));
    }
  });
  return errs;
}

function validateResources(groups: readonly GroupResources[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const gr of groups) {
    // The empty group is the core group; `*` is every group.
    const group = gr.group ?? '';
    if (group !== '' && group !== '*') {
      const msgs = isDNS1123Subdomain(group);
      if (msgs.length) errs.push(fieldError.invalid(child(path, 'group'), group, msgs.join(',')));
    }
    if ((gr.resourceNames?.length ?? 0) > 0 && (gr.resources?.length ?? 0) === 0) {
      errs.push(fieldError.invalid(child(path, 'resourceNames'), gr.resourceNames, 'using resourceNames requires at least one resource'));
    }
  }
  return errs;
}

function validateOmitStages(stages: readonly string[] | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  (stages ?? []).forEach((stage, i) => {
    if (!(AUDIT_STAGES as readonly string[]).includes(stage)) {
      errs.push(fieldError.invalid(index(path, i), stage, `allowed stages are ${AUDIT_STAGES.join(',')}`));
    }
  });
  return errs;
}
