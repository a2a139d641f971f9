/**
 * Memory (items already stored before the sequence runs) → `Memory`. Accepted: an object `{label: value}`,
 * or an array of `{label, value}` / `{label, output}` items.
 */
import { z } from 'zod';
import type { Json, Memory } from '../model/types.ts';
import { InputError, formatPath, parseAt } from '../model/errors.ts';
import { loadJsonWith } from './files.ts';
import { isPlainObject, jsonValue, kindOf, nameSchema, own, refuseSlips, setOwn } from './json.ts';
import { isLabel, notALabel } from './references.ts';

const item = z
  .looseObject({ label: nameSchema, value: jsonValue.optional(), output: jsonValue.optional() })
  .refine((x) => x.value !== undefined || x.output !== undefined, {
    message: 'expected a value or an output',
  });

const ITEM_KEYS = ['label', 'value', 'output'] as const;

/** Parses memory; `root` names it in error paths. */
export function parseMemory(json: unknown, root = 'memory'): Memory {
  const memory: Record<string, Json> = {};
  if (isPlainObject(json)) {
    for (const [label, value] of Object.entries(json)) {
      parseAt(nameSchema, label, [root, label]);
      if (!isLabel(label)) throw new InputError(formatPath([root, label]), notALabel(label));
      setOwn(memory, label, parseAt(jsonValue, value, [root, label]));
    }
    return memory;
  }
  if (Array.isArray(json)) {
    json.forEach((raw, i) => {
      if (isPlainObject(raw)) refuseSlips(raw, ITEM_KEYS, [root, i], true);
      const entry = parseAt(item, raw, [root, i]);
      if (!isLabel(entry.label)) throw new InputError(formatPath([root, i, 'label']), notALabel(entry.label));
      if (Object.prototype.hasOwnProperty.call(memory, entry.label)) {
        throw new InputError(
          formatPath([root, i, 'label']),
          `label ${JSON.stringify(entry.label)} given twice`,
        );
      }
      setOwn(
        memory,
        entry.label,
        (own(raw as Record<string, unknown>, 'value') !== undefined ? entry.value : entry.output) as Json,
      );
    });
    return memory;
  }
  throw new InputError(
    root,
    `expected an object {label: value} or an array of {label, value} items, received ${kindOf(json)}`,
  );
}

/** Reads a memory file (JSON). */
export function loadMemory(path: string): Memory {
  return loadJsonWith(path, (json) => parseMemory(json));
}
