/**
 * Fuzz targets that need no solver: the reference parser, the string form, the catalog, sequence and
 * memory adapters, and argument healing.
 */
import fc from 'fast-check';
import { parseCatalog } from '../../src/read/catalog.ts';
import { parseAt } from '../../src/model/errors.ts';
import { jsonValue } from '../../src/read/json.ts';
import { parseMemory } from '../../src/read/memory.ts';
import {
  formatStringForm,
  parseSequence,
  parseSequenceText,
  parseStringForm,
} from '../../src/read/sequence.ts';
import type { Sequence } from '../../src/model/types.ts';
import { heal } from '../../src/heal/index.ts';
import {
  findReferences,
  formatReference,
  mapReferences,
  parseReferenceBody,
} from '../../src/read/references.ts';
import { fail, type Target } from './harness.ts';
import { hostileJson, hostileName, hostileString, objectOf } from './inputs.ts';
import { structured } from './structured.ts';

const json = (v: unknown) => JSON.stringify(v);

export function checkRoundTrip(seq: Sequence): void {
  const again = parseStringForm(formatStringForm(seq));
  if (json(again) !== json(seq)) fail(`string form round trip changed ${json(seq).slice(0, 200)}`);
}

export function parseTargets(): Target[] {
  const { catalog: smallCatalog, steps: hostileSteps, toolCalls: hostileToolCalls } = structured();
  const wideSteps = fc.array(
    fc.record(
      {
        name: hostileName,
        arguments: objectOf(fc.array(fc.tuple(hostileName, hostileJson), { maxLength: 3 })),
        label: hostileName,
      },
      { requiredKeys: ['name', 'arguments'] },
    ),
    { maxLength: 5 },
  );
  return [
    {
      name: 'reference',
      solver: false,
      arbitrary: hostileString,
      run: (text: string) => {
        for (const f of findReferences(text)) {
          if (text.slice(f.start, f.end) !== f.ref.raw) fail('span does not match raw');
          if (json(parseReferenceBody(f.ref.raw.slice(1, -1))) !== json(f.ref)) fail('reparse differs');
          if (formatReference(f.ref.label, f.ref.path) !== f.ref.raw) fail(`format differs: ${f.ref.raw}`);
        }
      },
    },
    {
      name: 'reference-map',
      solver: false,
      arbitrary: hostileJson,
      run: (raw: unknown) => {
        // Only what the adapters let through (nesting <= 128) ever reaches the reference code.
        const value = parseAt(jsonValue, raw, ['value']);
        const out = mapReferences(value, (ref) => ref.raw);
        if (json(out) !== json(value)) fail('identity mapReferences changed the value');
      },
    },
    {
      name: 'string-form-text',
      solver: false,
      arbitrary: hostileString,
      run: (text: string) => checkRoundTrip(parseStringForm(text)),
    },
    {
      name: 'string-form-roundtrip',
      solver: false,
      arbitrary: fc.oneof(hostileSteps, wideSteps),
      run: (steps: unknown) => checkRoundTrip(parseSequence(steps)),
    },
    {
      name: 'catalog',
      solver: false,
      arbitrary: fc.oneof(smallCatalog, hostileJson),
      run: (raw: unknown) => parseCatalog(raw),
    },
    {
      name: 'sequence',
      solver: false,
      arbitrary: fc.oneof(hostileSteps, hostileToolCalls, hostileJson),
      run: (raw: unknown) => parseSequence(raw),
    },
    {
      name: 'sequence-text',
      solver: false,
      arbitrary: hostileString,
      run: (text: string) => parseSequenceText(text),
    },
    { name: 'memory', solver: false, arbitrary: hostileJson, run: (raw: unknown) => parseMemory(raw) },
    {
      name: 'heal',
      solver: false,
      arbitrary: fc.tuple(smallCatalog, fc.oneof(hostileToolCalls, hostileSteps)),
      run: ([rawCatalog, calls]: [unknown, unknown]) => {
        const catalog = parseCatalog(rawCatalog);
        const healed = heal(calls, catalog);
        if (heal(healed.sequence, catalog).edits.length > 0) fail('healing is not idempotent');
      },
    },
  ];
}
