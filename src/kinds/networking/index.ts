/** The networking group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { ServiceCIDRKind } from './service-cidr.js';

export { ServiceCIDRKind, type ServiceCIDR } from './service-cidr.js';

/** ServiceCIDR. */
export const networkingKinds: readonly KindDefinition[] = [ServiceCIDRKind];
