/**
 * The results of executed calls as memory items. A call that ran has a result the run holds under its label;
 * where memory does not carry it (the agent sent the calls, not what they returned), the item is a placeholder
 * at every output path the call's API declares: its fields read as that API's, their values unknown here.
 */
import type { Catalog, Json, Memory, Sequence } from '../model/types.ts';
import { ownValue, setOwn } from '../model/objects.ts';
import { indexCatalog } from '../catalog/catalog-index.ts';

/** A placeholder value at every declared output path of each executed call (values are unknown here). */
export function memoryFromCalls(executed: Sequence, catalog: Catalog): Memory {
  const apis = indexCatalog(catalog).byName;
  const memory: Record<string, Json> = {};
  for (const step of executed) {
    if (step.label === undefined) continue;
    const root: Record<string, Json> = {};
    for (const field of apis.get(step.name)?.outputs ?? []) place(root, field.path.split('.'));
    setOwn(memory, step.label, root);
  }
  return memory;
}

/**
 * `memory` with a placeholder for each labelled executed call it holds nothing under (the same object when
 * there is none to add), so that the steps reading those calls' outputs read them.
 */
export function withExecutedResults(
  memory: Memory | undefined,
  executed: Sequence | undefined,
  catalog: Catalog,
): Memory | undefined {
  const missing = (executed ?? []).filter(
    (call) => call.label !== undefined && (memory === undefined || !Object.hasOwn(memory, call.label)),
  );
  if (missing.length === 0) return memory;
  return { ...memoryFromCalls(missing, catalog), ...(memory ?? {}) };
}
/** Writes a placeholder at a normalised path (`author[].id` -> author: [{ id: null }]). */
function place(root: Record<string, Json>, keys: string[]): void {
  let node: Record<string, Json> = root;
  keys.forEach((raw, i) => {
    const list = raw.endsWith('[]');
    const key = list ? raw.slice(0, raw.indexOf('[')) : raw;
    const last = i === keys.length - 1;
    const existing = ownValue(node, key);
    if (list) {
      const items = Array.isArray(existing) ? (existing as Json[]) : [];
      if (items.length === 0) items.push({});
      setOwn(node, key, items);
      if (!last) node = items[0] as Record<string, Json>;
    } else if (last) {
      if (existing === undefined) setOwn(node, key, null);
    } else {
      if (existing === null || typeof existing !== 'object' || Array.isArray(existing)) setOwn(node, key, {});
      node = ownValue(node, key) as Record<string, Json>;
    }
  });
}
