/**
 * The promlint findings a Kubernetes component's `/metrics` has by design: metric names that predate
 * Prometheus' naming rules and stay as they are, because renaming them would break every dashboard
 * and alert written against them. component-base keeps the same names exempt from its own lint
 * check (`exceptionMetrics` in staging/src/k8s.io/component-base/metrics/testutil/promlint.go); a
 * memkube metric may only break a rule where its upstream namesake does, and only that rule.
 */
import type { LintProblem } from './promtool.js';

/** promlint's messages, as promtool 2.42 prints them. */
export const LINT = {
  totalSuffix: 'counter metrics should have "_total" suffix',
  countSuffix: 'non-histogram and non-summary metrics should not have "_count" suffix',
  nonCounterTotal: 'non-counter metrics should not have "_total" suffix',
  summaryInName: "metric name should not include type 'summary'",
  abbreviatedUnits: 'metric names should not contain abbreviated units',
  milliseconds: 'use base unit "seconds" instead of "milliseconds"',
  noHelp: 'no help text',
  camelCaseLabel: "label names should be written in 'snake_case' not 'camelCase'",
} as const;

/** One upstream metric name and the rules it breaks. */
export interface AcceptedLint {
  readonly metric: string;
  readonly problems: readonly string[];
  /** Where the name comes from. */
  readonly from: string;
}

const counterNamedCount = [LINT.totalSuffix, LINT.countSuffix];

/** The upstream names whose lint findings are accepted, with the findings. */
export const ACCEPTED_UPSTREAM_LINT: readonly AcceptedLint[] = [
  // k8s.io/apiserver
  { metric: 'apiserver_egress_dialer_dial_failure_count', problems: [LINT.totalSuffix, LINT.countSuffix], from: 'k8s.io/apiserver egressselector' },
  { metric: 'authenticated_user_requests', problems: [LINT.totalSuffix], from: 'k8s.io/apiserver endpoints/filters' },
  { metric: 'authentication_attempts', problems: [LINT.totalSuffix], from: 'k8s.io/apiserver endpoints/filters' },
  { metric: 'aggregator_openapi_v2_regeneration_count', problems: counterNamedCount, from: 'kube-aggregator' },
  { metric: 'apiserver_admission_step_admission_duration_seconds_summary', problems: [LINT.summaryInName], from: 'k8s.io/apiserver admission metrics' },
  { metric: 'apiserver_admission_webhook_fail_open_count', problems: counterNamedCount, from: 'k8s.io/apiserver admission metrics' },
  { metric: 'apiserver_admission_webhook_rejection_count', problems: counterNamedCount, from: 'k8s.io/apiserver admission metrics' },
  { metric: 'apiserver_flowcontrol_latest_s', problems: [LINT.abbreviatedUnits], from: 'k8s.io/apiserver flowcontrol' },
  { metric: 'apiserver_flowcontrol_next_discounted_s_bounds', problems: [LINT.abbreviatedUnits], from: 'k8s.io/apiserver flowcontrol' },
  { metric: 'apiserver_flowcontrol_next_s_bounds', problems: [LINT.abbreviatedUnits], from: 'k8s.io/apiserver flowcontrol' },
  { metric: 'authentication_token_cache_active_fetch_count', problems: [LINT.noHelp, LINT.countSuffix], from: 'k8s.io/apiserver token cache' },
  { metric: 'authentication_token_cache_fetch_total', problems: [LINT.noHelp], from: 'k8s.io/apiserver token cache' },
  { metric: 'authentication_token_cache_request_duration_seconds', problems: [LINT.noHelp], from: 'k8s.io/apiserver token cache' },
  { metric: 'authentication_token_cache_request_total', problems: [LINT.noHelp], from: 'k8s.io/apiserver token cache' },
  { metric: 'apiserver_watch_shards_total', problems: [LINT.nonCounterTotal], from: 'k8s.io/apiserver storage' },
  // The CSR duration counters label their signer `signerName`, the field's name in the API.
  { metric: 'apiserver_certificates_registry_csr_honored_duration_total', problems: [LINT.camelCaseLabel], from: 'kube-apiserver certificates registry' },
  { metric: 'apiserver_certificates_registry_csr_requested_duration_total', problems: [LINT.camelCaseLabel], from: 'kube-apiserver certificates registry' },
  // apiextensions-apiserver
  { metric: 'apiextensions_openapi_v2_regeneration_count', problems: counterNamedCount, from: 'apiextensions-apiserver' },
  { metric: 'apiextensions_openapi_v3_regeneration_count', problems: counterNamedCount, from: 'apiextensions-apiserver' },
  // kubelet
  { metric: 'kubelet_pod_resize_duration_milliseconds', problems: [LINT.milliseconds], from: 'kubelet' },
  { metric: 'resource_manager_container_assignments', problems: [LINT.totalSuffix], from: 'kubelet resource managers' },
  { metric: 'kubelet_container_aligned_compute_resources_count', problems: counterNamedCount, from: 'kubelet' },
  { metric: 'kubelet_container_aligned_compute_resources_failure_count', problems: counterNamedCount, from: 'kubelet' },
  { metric: 'kubelet_cpu_manager_exclusive_cpu_allocation_count', problems: [LINT.countSuffix], from: 'kubelet cpu manager' },
  { metric: 'kubelet_evented_pleg_connection_error_count', problems: counterNamedCount, from: 'kubelet evented PLEG' },
  { metric: 'kubelet_evented_pleg_connection_success_count', problems: counterNamedCount, from: 'kubelet evented PLEG' },
  { metric: 'kubelet_evictions', problems: [LINT.totalSuffix], from: 'kubelet eviction manager' },
  { metric: 'kubelet_pleg_discard_events', problems: [LINT.totalSuffix], from: 'kubelet PLEG' },
  { metric: 'kubelet_pod_resources_endpoint_errors_get', problems: [LINT.totalSuffix], from: 'kubelet pod resources API' },
  { metric: 'kubelet_pod_resources_endpoint_errors_get_allocatable', problems: [LINT.totalSuffix], from: 'kubelet pod resources API' },
  { metric: 'kubelet_pod_resources_endpoint_errors_list', problems: [LINT.totalSuffix], from: 'kubelet pod resources API' },
  { metric: 'kubelet_pod_resources_endpoint_requests_get', problems: [LINT.totalSuffix], from: 'kubelet pod resources API' },
  { metric: 'kubelet_pod_resources_endpoint_requests_get_allocatable', problems: [LINT.totalSuffix], from: 'kubelet pod resources API' },
  { metric: 'kubelet_pod_resources_endpoint_requests_list', problems: [LINT.totalSuffix], from: 'kubelet pod resources API' },
  { metric: 'kubelet_preemptions', problems: [LINT.totalSuffix], from: 'kubelet admission' },
  { metric: 'kubelet_server_expiration_renew_errors', problems: [LINT.totalSuffix], from: 'kubelet serving certificate manager' },
  { metric: 'kubelet_topology_manager_admission_duration_ms', problems: [LINT.abbreviatedUnits], from: 'kubelet topology manager' },
  { metric: 'kubelet_certificate_manager_client_expiration_renew_errors', problems: [LINT.totalSuffix], from: 'kubelet client certificate manager' },
  { metric: 'volume_manager_selinux_container_errors_total', problems: [LINT.nonCounterTotal], from: 'kubelet volume manager' },
  { metric: 'volume_manager_selinux_container_warnings_total', problems: [LINT.nonCounterTotal], from: 'kubelet volume manager' },
  { metric: 'volume_manager_selinux_pod_context_mismatch_errors_total', problems: [LINT.nonCounterTotal], from: 'kubelet volume manager' },
  { metric: 'volume_manager_selinux_pod_context_mismatch_warnings_total', problems: [LINT.nonCounterTotal], from: 'kubelet volume manager' },
  { metric: 'volume_manager_selinux_volume_context_mismatch_errors_total', problems: [LINT.nonCounterTotal], from: 'kubelet volume manager' },
  { metric: 'volume_manager_selinux_volume_context_mismatch_warnings_total', problems: [LINT.nonCounterTotal], from: 'kubelet volume manager' },
  { metric: 'volume_manager_selinux_volumes_admitted_total', problems: [LINT.nonCounterTotal], from: 'kubelet volume manager' },
];

const accepted = new Map(ACCEPTED_UPSTREAM_LINT.map((a) => [a.metric, new Set(a.problems)]));

/** The problems not explained by an upstream name: each one is a memkube naming mistake. */
export function unacceptedProblems(problems: readonly LintProblem[]): LintProblem[] {
  return problems.filter((p) => !accepted.get(p.metric)?.has(p.text));
}
