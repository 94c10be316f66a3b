/**
 * The descriptions of the `kubectl get` columns of the apps workloads, as
 * `pkg/printers/internalversion/printers.go` declares them (most are the extensions/v1beta1 and core
 * v1 field docs, `SwaggerDoc()`, of Kubernetes v1.36).
 */
export const CONTAINERS_DESCRIPTION = 'Names of each container in the template.';
export const IMAGES_DESCRIPTION = 'Images referenced by each container in the template.';

export const DEPLOYMENT_COLUMNS = {
  ready: 'Number of the pod with ready state',
  upToDate: 'Total number of non-terminating pods targeted by this deployment that have the desired template spec.',
  available: 'Total number of available non-terminating pods (ready for at least minReadySeconds) targeted by this deployment.',
  selector: 'Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment.',
} as const;

export const REPLICASET_COLUMNS = {
  desired:
    'Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
  current:
    'Replicas is the most recently observed number of non-terminating pods. More info: https://kubernetes.io/docs/concepts/workloads/controllers/replicaset',
  ready: 'The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition.',
  selector:
    'Selector is a label query over pods that should match the replica count. If the selector is empty, it is defaulted to the labels present on the pod template. Label keys and values that must match in order to be controlled by this replica set. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
} as const;

export const DAEMONSET_COLUMNS = {
  desired:
    'The total number of nodes that should be running the daemon pod (including nodes correctly running the daemon pod). More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
  current:
    'The number of nodes that are running at least 1 daemon pod and are supposed to run the daemon pod. More info: https://kubernetes.io/docs/concepts/workloads/controllers/daemonset/',
  ready: 'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and ready.',
  upToDate: 'The total number of nodes that are running updated daemon pod',
  available:
    'The number of nodes that should be running the daemon pod and have one or more of the daemon pod running and available (ready for at least spec.minReadySeconds)',
  nodeSelector:
    "NodeSelector is a selector which must be true for the pod to fit on a node. Selector which must match a node's labels for the pod to be scheduled on that node. More info: https://kubernetes.io/docs/concepts/configuration/assign-pod-node/",
  selector:
    'A label query over pods that are managed by the daemon set. Must match in order to be controlled. If empty, defaulted to labels on Pod template. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
} as const;
