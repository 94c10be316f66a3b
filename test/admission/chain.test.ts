import { describe, expect, it } from 'vitest';
import { admissionChain, AdmissionConfigError } from '../../src/admission/chain.js';
import { ALL_ORDERED_PLUGINS } from '../../src/admission/plugin-names.js';
import { createCluster } from '../../src/cluster.js';

describe('the admission chain', () => {
  it("runs kube-apiserver's default plugins that memkube implements, in kube-apiserver's order", () => {
    expect(admissionChain().names).toEqual(['NamespaceLifecycle', 'ServiceAccount', 'Priority', 'DefaultTolerationSeconds']);
    // The order of AllOrderedPlugins, whatever the order of the configuration.
    expect(admissionChain({ enable: ['DefaultTolerationSeconds', 'NamespaceLifecycle'] }).names).toEqual([
      'NamespaceLifecycle',
      'ServiceAccount',
      'Priority',
      'DefaultTolerationSeconds',
    ]);
    const at = (name: string) => ALL_ORDERED_PLUGINS.indexOf(name);
    expect(at('NamespaceLifecycle')).toBeLessThan(at('ServiceAccount'));
    expect(at('ServiceAccount')).toBeLessThan(at('Priority'));
    expect(at('Priority')).toBeLessThan(at('DefaultTolerationSeconds'));
    expect(ALL_ORDERED_PLUGINS.slice(-6)).toEqual([
      'MutatingAdmissionPolicy',
      'MutatingAdmissionWebhook',
      'ValidatingAdmissionPolicy',
      'ValidatingAdmissionWebhook',
      'ResourceQuota',
      'AlwaysDeny',
    ]);
  });

  it('leaves out the disabled plugins', () => {
    expect(admissionChain({ disable: ['ServiceAccount', 'Priority'] }).names).toEqual(['NamespaceLifecycle', 'DefaultTolerationSeconds']);
    // Disabling a default plugin memkube does not implement is accepted, and changes nothing.
    expect(admissionChain({ disable: ['LimitRanger', 'ResourceQuota'] }).names).toHaveLength(4);
  });

  it("rejects unknown plugin names with kube-apiserver's words", () => {
    expect(() => admissionChain({ enable: ['NamespaceLifeCycle'] })).toThrow(
      new AdmissionConfigError(['enable-admission-plugins plugin "NamespaceLifeCycle" is unknown']),
    );
    expect(() => admissionChain({ disable: ['Nope'] })).toThrow('disable-admission-plugins plugin "Nope" is unknown');
    expect(() => admissionChain({ enable: ['A'], disable: ['B'] })).toThrow(
      '[enable-admission-plugins plugin "A" is unknown, disable-admission-plugins plugin "B" is unknown]',
    );
    expect(() => admissionChain({ enable: ['Priority', 'ServiceAccount'], disable: ['ServiceAccount', 'Priority'] })).toThrow(
      '[Priority ServiceAccount] in enable-admission-plugins and disable-admission-plugins overlapped',
    );
  });

  it('refuses to turn on a plugin memkube does not implement', () => {
    expect(() => admissionChain({ enable: ['AlwaysPullImages'] })).toThrow('enable-admission-plugins plugin "AlwaysPullImages" is not implemented by memkube');
  });

  it('is checked by createCluster', async () => {
    await expect(createCluster({ admission: { disable: ['Bogus'] } })).rejects.toThrow('disable-admission-plugins plugin "Bogus" is unknown');
  });
});
