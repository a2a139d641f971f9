/**
 * The seeded generator of the second recipe: from each valid gold plan, one record per mistake kind that
 * applies, then one record with two mistakes of different kinds. A draw the validator still accepts is not
 * kept. Each gold plan draws from its own seed (`flow/seed/set/index`), so records do not depend on the
 * other plans, and the output is byte-identical from run to run.
 */
import type { Catalog } from '../../src/model/types.ts';
import type { NestfulStep } from '../../src/read/sequence.ts';
import { hashSeed, mulberry32, shuffled, type Rng } from '../../src/model/prng.ts';
import { apiByName, validate } from '../../src/validate/validate.ts';
import { DEFAULT_RESULT_NAME } from '../../src/model/constants.ts';
import {
  FLOW_KINDS,
  FLOW_MISTAKES,
  missingProducer,
  PRODUCER_KIND,
  type FlowContext,
  type FlowKind,
} from './flow-mistakes.ts';

/** A set of gold plans over one catalog (a NESTFUL set or a synthetic world). */
export interface GoldCorpus {
  readonly name: string;
  readonly catalog: Catalog;
  readonly gold: readonly { readonly index: number; readonly steps: NestfulStep[] }[];
}

/** One record of the second recipe; `note` says what each mistake did. */
export interface FlowRecord {
  readonly id: string;
  readonly kind: string;
  readonly set: string;
  readonly note: string;
  readonly gold: NestfulStep[];
  readonly sequence: NestfulStep[];
}

export const FLOW_SEED = 20250301;
/** Draws per record before a kind is given up for a plan. */
const TRIES = 8;

function leafNames(catalog: Catalog): Map<string, string[]> {
  return new Map(
    catalog.apis.map((api) => [
      api.name,
      [
        ...new Set(
          (api.outputs ?? []).map((f) =>
            f.path
              .split(/[.[\]]+/)
              .filter(Boolean)
              .at(-1)!,
          ),
        ),
      ],
    ]),
  );
}

export function flowContext(catalog: Catalog): FlowContext {
  return { apis: apiByName(catalog), resultName: DEFAULT_RESULT_NAME, leaves: leafNames(catalog) };
}

function apply(
  rng: Rng,
  gold: readonly NestfulStep[],
  kinds: readonly FlowKind[],
  ctx: FlowContext,
): { steps: NestfulStep[]; note: string } | null {
  let steps: readonly NestfulStep[] = gold;
  const notes: string[] = [];
  for (const kind of kinds) {
    const next = FLOW_MISTAKES[kind](rng, steps, ctx);
    if (next === null) return null;
    steps = next.steps;
    notes.push(next.note);
  }
  return { steps: steps as NestfulStep[], note: notes.join('; ') };
}

interface Made {
  readonly kind: string;
  readonly steps: NestfulStep[];
  readonly note: string;
  /** The record's gold when it is not the plan (`missing_producer`). */
  readonly gold?: NestfulStep[];
}

/**
 * The records of one gold plan: `[kinds, corruption]` pairs, each invalid and distinct. `missing_producer`
 * draws from its own `producerRng`, after the others, so adding it left their records as they were.
 */
function corruptPlan(
  rng: Rng,
  producerRng: Rng,
  gold: readonly NestfulStep[],
  catalog: Catalog,
  ctx: FlowContext,
): Made[] {
  const seen = new Set([JSON.stringify(gold)]);
  const out: Made[] = [];
  const attempt = (kinds: readonly FlowKind[]): boolean => {
    for (let t = 0; t < TRIES; t++) {
      const made = apply(rng, gold, kinds, ctx);
      if (made === null) return false;
      const key = JSON.stringify(made.steps);
      if (seen.has(key) || validate(made.steps, catalog).valid) continue;
      seen.add(key);
      out.push({ kind: kinds.join('+'), ...made });
      return true;
    }
    return false;
  };
  for (const kind of FLOW_KINDS) attempt([kind]);
  const pairs = FLOW_KINDS.flatMap((a, i) => FLOW_KINDS.slice(i + 1).map((b) => [a, b] as FlowKind[]));
  for (const pair of shuffled(rng, pairs)) if (attempt(shuffled(rng, pair))) break;
  const lookup = missingProducer(producerRng, gold, ctx);
  if (lookup && !seen.has(JSON.stringify(lookup.steps)) && !validate(lookup.steps, catalog).valid)
    out.push({ kind: PRODUCER_KIND, ...lookup });
  return out;
}

export function generateFlowRecords(corpus: GoldCorpus, seed = FLOW_SEED): FlowRecord[] {
  const ctx = flowContext(corpus.catalog);
  return corpus.gold.flatMap((gold) => {
    const rng = mulberry32(hashSeed(`flow/${seed}/${corpus.name}/${gold.index}`));
    const producerRng = mulberry32(hashSeed(`flow/${seed}/${corpus.name}/${gold.index}/${PRODUCER_KIND}`));
    return corruptPlan(rng, producerRng, gold.steps, corpus.catalog, ctx).map((r, k) => ({
      id: `${corpus.name}-${gold.index}-f${k + 1}`,
      kind: r.kind,
      set: corpus.name,
      note: r.note,
      gold: r.gold ?? gold.steps,
      sequence: r.steps,
    }));
  });
}

/** One JSON record per line, keys in a fixed order. */
export function flowJsonl(records: readonly FlowRecord[]): string {
  return records
    .map(
      (r) =>
        JSON.stringify({
          id: r.id,
          kind: r.kind,
          set: r.set,
          note: r.note,
          gold: r.gold,
          sequence: r.sequence,
        }) + '\n',
    )
    .join('');
}
