/** The networking group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { IngressClassKind } from './ingress-class.js';
import { IngressKind } from './ingress.js';
import { IPAddressKind } from './ip-address.js';
import { NetworkPolicyKind } from './network-policy.js';
import { ServiceCIDRKind } from './service-cidr.js';

export { IngressKind, type Ingress } from './ingress.js';
export { IngressClassKind, type IngressClass } from './ingress-class.js';
export { IPAddressKind, type IPAddress } from './ip-address.js';
export { NetworkPolicyKind, type NetworkPolicy } from './network-policy.js';
export { ServiceCIDRKind, type ServiceCIDR } from './service-cidr.js';

/** Ingress, IngressClass, NetworkPolicy, IPAddress, ServiceCIDR. */
export const networkingKinds: readonly KindDefinition[] = [IngressKind, IngressClassKind, NetworkPolicyKind, IPAddressKind, ServiceCIDRKind];
