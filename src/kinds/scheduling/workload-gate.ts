/** The feature gate of the workload-aware scheduling kinds of scheduling v1alpha2 (Workload, PodGroup). */
export const GENERIC_WORKLOAD = 'GenericWorkload';
