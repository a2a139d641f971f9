/**
 * Renamed variants of a field name, as a planner misremembers them: another case style, the consuming
 * parameter's name, a word dropped or added, a plural, a different capitalisation of `Id`. The word
 * splitter is this recipe's own, so the mistakes do not follow the repair model's idea of a name.
 */

/** Lower-case words of a name: `destinationEntityId` → destination, entity, id; `the_city_name` likewise. */
export function splitName(name: string): string[] {
  return name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z\d]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

type Case = 'snake' | 'camel' | 'pascal';

function caseOf(name: string): Case {
  if (name.includes('_') || !/[A-Z]/.test(name)) return 'snake';
  return /^[A-Z]/.test(name) ? 'pascal' : 'camel';
}

function join(words: readonly string[], style: Case): string {
  if (style === 'snake') return words.join('_');
  const pascal = words.map(cap).join('');
  return style === 'pascal' ? pascal : pascal.charAt(0).toLowerCase() + pascal.slice(1);
}

/** Distinct plausible misnamings of `field`, read into parameter `param`, in a fixed order. */
export function nameVariants(field: string, param: string): string[] {
  const words = splitName(field);
  const style = caseOf(field);
  const out: string[] = [];
  if (words.length > 1) out.push(join(words, style === 'snake' ? 'camel' : 'snake'));
  out.push(param);
  if (words.length > 1) out.push(join(words.slice(1), style));
  const extra = splitName(param).find((w) => !words.includes(w));
  if (extra !== undefined) out.push(join([extra, ...words], style));
  out.push(field.endsWith('s') ? field.slice(0, -1) : `${field}s`);
  if (/Id$/.test(field)) out.push(field.replace(/Id$/, 'ID'));
  if (/_id$/.test(field)) out.push(field.replace(/_id$/, 'Id'));
  return [...new Set(out)].filter((n) => n.length > 0 && n !== field);
}
