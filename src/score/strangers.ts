/**
 * Two ways a repair can go wrong in a large catalog, where some API nearly always outputs a field of the
 * needed name, judged with the catalog's specs:
 *
 * - a **stranger call**: a call the repair inserted or restored (one more call of its API than both the
 *   input and the gold have) of an API whose name shares no content word with the input plan (its calls'
 *   API names, argument names and answer keys: `planWords`) nor with the parameters the call feeds in the
 *   repair (the value it is there for: `find_city` feeding a lost `city_id`, as the repair model's
 *   `relatedTo` reads it). A tooth-fracture lookup inserted into an ECG plan; a payment lookup feeding a
 *   loan's `principal_amount`.
 * - an **unsupported wiring**: an argument the repair wired to an output field (a wiring neither the input
 *   nor the gold has, nor a field the input's own argument reads under a label it lost) with no evidence for it: the field's and the parameter's names share no word and are
 *   not alike, their descriptions share no content word, and their declared types do not agree on anything
 *   more telling than `string` (`audience="$var2.status$"`, `image_height="$var2.fruit_production$"`).
 *
 * Pure functions of the three sequences and the catalog.
 */
import type { ApiSpec, Catalog, ReferenceSite, Sequence } from '../model/types.ts';
import { DEFAULT_RESULT_NAME, isAnswerStep, isPseudoStep } from '../model/constants.ts';
import { indexCatalog } from '../catalog/catalog-index.ts';
import {
  apiWords,
  contentWords,
  linkEvidence,
  namedOrDescribed,
  planWords,
  WEAK_TYPES,
} from '../catalog/evidence.ts';
import { normalisePath, referenceSites } from '../read/references.ts';
import { callsOf, producerIndex } from './steps.ts';

/**
 * Name evidence between a field and a parameter: they share a stemmed word, or their character similarity
 * is at least this (`pateint_id` / `patient_id`). A judging threshold of the measure, not of the repair.
 */
export const NAME_EVIDENCE_SIMILARITY = 0.75;

export interface StrangerCall {
  /** Index of the call in the repair. */
  readonly step: number;
  readonly api: string;
}

export interface UnsupportedWiring {
  /** Index of the consuming call in the repair, its parameter, and the reference it was given. */
  readonly step: number;
  readonly param: string;
  readonly reference: string;
}

export interface CatalogJudgement {
  readonly strangerCalls: readonly StrangerCall[];
  readonly unsupportedWirings: readonly UnsupportedWiring[];
}

export interface CatalogScoreInput {
  readonly input: Sequence;
  readonly gold: Sequence;
  readonly repaired: Sequence | null;
  readonly catalog: Catalog;
  /** The answer step's name (default `var_result`). */
  readonly resultName?: string;
}

function isAnswerOf(sequence: Sequence, resultName: string) {
  return (i: number) => isAnswerStep(sequence, i, resultName);
}

/**
 * A multiset filter: true for each occurrence of a key beyond the count `had` or `wanted` has of it (what
 * the repair added that neither the input nor the gold holds).
 */
function beyond(had: ReadonlyMap<string, number>, wanted: ReadonlyMap<string, number>) {
  const seen = new Map<string, number>();
  return (key: string) => {
    const n = (seen.get(key) ?? 0) + 1;
    seen.set(key, n);
    return n > Math.max(had.get(key) ?? 0, wanted.get(key) ?? 0);
  };
}

function countCalls(sequence: Sequence, resultName: string): Map<string, number> {
  const out = new Map<string, number>();
  const answer = isAnswerOf(sequence, resultName);
  for (const { index, step } of callsOf(sequence))
    if (!answer(index)) out.set(step.name, (out.get(step.name) ?? 0) + 1);
  return out;
}

/** A reference in a call's arguments (the answer step's included): the step, the parameter and the site. */
interface ArgumentRead {
  readonly step: number;
  readonly param: string;
  readonly site: ReferenceSite;
}

function argumentReads(sequence: Sequence): ArgumentRead[] {
  const out: ArgumentRead[] = [];
  for (const { index, step } of callsOf(sequence))
    for (const [param, value] of Object.entries(step.arguments))
      for (const site of referenceSites(param, value)) out.push({ step: index, param, site });
  return out;
}

/** The parameters (of calls, not the answer) that read the output of step `at`. */
function fedParams(sequence: Sequence, reads: readonly ArgumentRead[], at: number, resultName: string) {
  const answer = isAnswerOf(sequence, resultName);
  return reads
    .filter((r) => !answer(r.step) && producerIndex(sequence, r.step, r.site.ref.label) === at)
    .map((r) => r.param);
}

/**
 * Calls beyond what the input and the gold have of their API, whose API shares no word with the input plan
 * nor with a parameter the call feeds.
 */
export function strangerCalls(
  input: Sequence,
  gold: Sequence,
  repaired: Sequence,
  catalog: Catalog,
  resultName = DEFAULT_RESULT_NAME,
): StrangerCall[] {
  const index = indexCatalog(catalog);
  const words = planWords(input, (name) => index.byName.get(name), isAnswerOf(input, resultName));
  const added = beyond(countCalls(input, resultName), countCalls(gold, resultName));
  const answer = isAnswerOf(repaired, resultName);
  const reads = argumentReads(repaired);
  const out: StrangerCall[] = [];
  for (const { index: i, step } of callsOf(repaired)) {
    if (answer(i)) continue;
    if (!added(step.name)) continue;
    const api: ApiSpec | undefined = index.byName.get(step.name);
    const own = api ? apiWords(api) : new Set(contentWords(step.name));
    const fed = fedParams(repaired, reads, i, resultName).flatMap(contentWords);
    const related = [...words, ...fed].some((w) => own.has(w));
    if (!related) out.push({ step: i, api: step.name });
  }
  return out;
}

/** Wirings of a sequence as `consumer API / param / producer API / field`, a multiset. */
function wiringKeys(sequence: Sequence): Map<string, number> {
  const out = new Map<string, number>();
  for (const w of wirings(sequence)) out.set(w.key, (out.get(w.key) ?? 0) + 1);
  return out;
}

interface Wiring {
  readonly step: number;
  readonly param: string;
  readonly reference: string;
  readonly producer: number;
  readonly field: string;
  readonly key: string;
}

function wirings(sequence: Sequence): Wiring[] {
  const out: Wiring[] = [];
  for (const { step, param, site } of argumentReads(sequence)) {
    const producer = producerIndex(sequence, step, site.ref.label);
    if (producer === null || isPseudoStep(sequence[producer]) || site.ref.path.length === 0) continue;
    const field = normalisePath(site.ref.path);
    out.push({
      step,
      param,
      reference: site.ref.raw,
      producer,
      field,
      key: `${sequence[step].name}\u0000${param}\u0000${sequence[producer].name}\u0000${field}`,
    });
  }
  return out;
}

/**
 * What the input itself writes into its calls' arguments, as `consumer API / param / field`, a dangling
 * label's references included (`text="$var1.lyrics$"` where nothing defines var1): a repair that puts the
 * producer back keeps that wiring, it does not make it.
 */
function writtenFields(sequence: Sequence): Set<string> {
  const out = new Set<string>();
  for (const { step, param, site } of argumentReads(sequence))
    if (site.ref.path.length > 0)
      out.add(`${sequence[step].name}\u0000${param}\u0000${normalisePath(site.ref.path)}`);
  return out;
}

/**
 * Wirings the repair made (not in the input or the gold, and not a field the input's own argument names)
 * with no name, description or type evidence.
 */
export function unsupportedWirings(
  input: Sequence,
  gold: Sequence,
  repaired: Sequence,
  catalog: Catalog,
  resultName = DEFAULT_RESULT_NAME,
): UnsupportedWiring[] {
  const index = indexCatalog(catalog);
  const added = beyond(wiringKeys(input), wiringKeys(gold));
  const written = writtenFields(input);
  const out: UnsupportedWiring[] = [];
  for (const w of wirings(repaired)) {
    if (!added(w.key)) continue;
    if (written.has(`${repaired[w.step].name}\u0000${w.param}\u0000${w.field}`)) continue;
    // The answer step's keys are no parameters: what it returns is the plan's choice.
    if (isAnswerOf(repaired, resultName)(w.step)) continue;
    const param = index.byName.get(repaired[w.step].name)?.params.find((p) => p.name === w.param);
    if (!param) continue;
    const api = index.byName.get(repaired[w.producer].name);
    const field = api?.outputs?.find((f) => f.path === w.field) ?? {
      path: w.field,
      type: 'any' as const,
    };
    const e = linkEvidence(index, field, param);
    const typed = field.type === param.type && !WEAK_TYPES.has(param.type);
    if (!namedOrDescribed(e, NAME_EVIDENCE_SIMILARITY) && !typed)
      out.push({ step: w.step, param: w.param, reference: w.reference });
  }
  return out;
}

/** Both measures for one repair; none when it returned nothing. */
export function judgeWithCatalog({
  input,
  gold,
  repaired,
  catalog,
  resultName,
}: CatalogScoreInput): CatalogJudgement {
  if (repaired === null) return { strangerCalls: [], unsupportedWirings: [] };
  return {
    strangerCalls: strangerCalls(input, gold, repaired, catalog, resultName),
    unsupportedWirings: unsupportedWirings(input, gold, repaired, catalog, resultName),
  };
}
