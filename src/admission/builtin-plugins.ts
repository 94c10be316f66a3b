/**
 * The admission plugins memkube implements. Adding one is its file in plugins/ and one line here;
 * the chain runs them in kube-apiserver's order (plugin-names.ts), whatever the order of this list.
 */
import type { AdmissionPlugin } from './plugin.js';
import { defaultTolerationSeconds } from './plugins/default-toleration-seconds.js';
import { namespaceLifecycle } from './plugins/namespace-lifecycle.js';
import { priority } from './plugins/priority.js';
import { serviceAccount } from './plugins/service-account.js';

export const BUILTIN_PLUGINS: readonly AdmissionPlugin[] = [namespaceLifecycle, serviceAccount, priority, defaultTolerationSeconds];
