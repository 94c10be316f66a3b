/**
 * The random suffix of generated names. It sits below the engine because both the engine
 * (`generateName`) and kinds' admission (a pod's token volume) name things the way Kubernetes does.
 */

/** Kubernetes' alphabet for generated names: no vowels, no confusable characters. */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

/** Five random characters from Kubernetes' generated-name alphabet. */
export function randomNameSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += NAME_ALPHABET[Math.floor(Math.random() * NAME_ALPHABET.length)];
  return s;
}
