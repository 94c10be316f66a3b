/**
 * What an admission plugin sees of one request: the shape of k8s.io/apiserver's
 * `admission.Attributes` (pkg/admission/interfaces.go), and the few reads of the cluster the
 * built-in plugins need (upstream, plugins get informers and clients from their initializers).
 */
import type { KubeObject } from '../schema/define-kind.js';
import type { GroupResource } from '../machinery/errors.js';
import type { UserInfo } from '../machinery/request.js';

/** The operation being admitted (`admission.Operation`). */
export type AdmissionOperation = 'CREATE' | 'UPDATE' | 'DELETE' | 'CONNECT';

/** One request as admission sees it. */
export interface AdmissionAttributes {
  readonly user: UserInfo;
  readonly operation: AdmissionOperation;
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  readonly resource: { readonly group: string; readonly version: string; readonly resource: string };
  /** `''` for the main resource. */
  readonly subresource: string;
  /** `''` for a cluster-scoped object. */
  readonly namespace: string;
  /** `''` before a generated name is chosen. */
  readonly name: string;
  /** The object being written, which mutating plugins change in place (absent on DELETE). */
  readonly object: KubeObject | undefined;
  /** The stored object (UPDATE and DELETE). */
  readonly oldObject: Readonly<KubeObject> | undefined;
  readonly dryRun: boolean;
  /**
   * Adds an audit annotation to the request's event (`admission.Attributes.AddAnnotation`): the key
   * is a qualified name with a prefix (`myplugin.admission.k8s.io/decision`). Answers the error
   * upstream returns for a malformed key or a key already set to another value, else undefined.
   */
  readonly addAnnotation?: (key: string, value: string) => Error | undefined;
}

/** The reads of the cluster a plugin may make, and the cluster's settings it needs. */
export interface AdmissionCluster {
  /** A stored object, or undefined. */
  read(resource: GroupResource, namespace: string, name: string): Promise<KubeObject | undefined>;
  /** The stored objects of a resource (of one namespace when given); `[]` for one not served. */
  list(resource: GroupResource, namespace?: string): Promise<KubeObject[]>;
  /** The domain of the `kubernetes.io` annotations, labels and taints. */
  readonly reservedDomain: string;
}
