/**
 * The fast path: every structural issue of a sequence, with a tag and a location. A sequence with no
 * error-severity issue is executable and never reaches the solver.
 */
import type { ApiSpec, Catalog, Issue, IssueTag, Json, Sequence, Step } from '../model/types.ts';
import type { ValidateOptions, Validation } from '../model/options.ts';
import { findReferences, stepReferences } from '../read/references.ts';
import { literalMismatch, typesCompatible } from './literals.ts';
import { apiProvides, memoryProvides, outputField } from './outputs.ts';
import { normalisePath } from '../read/references.ts';
import { paramsByName } from '../catalog/catalog-index.ts';
import { restatedSteps, triesExceeded, triesMessage } from './tries.ts';
import { withExecutedResults } from './executed-memory.ts';

const catalogIndex = new WeakMap<Catalog, Map<string, ApiSpec>>();

/** Name -> API, built once per catalog object. */
export function apiByName(catalog: Catalog): Map<string, ApiSpec> {
  let index = catalogIndex.get(catalog);
  if (!index) {
    index = new Map(catalog.apis.map((a) => [a.name, a]));
    catalogIndex.set(catalog, index);
  }
  return index;
}

import { DEFAULT_RESULT_NAME, isPseudoStepIn } from '../model/constants.ts';

/** True when a value holds no reference anywhere (a plain literal). */
export function isLiteral(value: Json): boolean {
  if (typeof value === 'string') return findReferences(value).length === 0;
  if (Array.isArray(value)) return value.every(isLiteral);
  if (value !== null && typeof value === 'object')
    return Object.values(value).every((v) => isLiteral(v as Json));
  return true;
}

export function validate(sequence: Sequence, catalog: Catalog, options: ValidateOptions = {}): Validation {
  const issues: Issue[] = [];
  const apis = apiByName(catalog);
  // An executed call's result is the run's whether or not memory carries it.
  const memory = withExecutedResults(options.memory, options.executed, catalog) ?? {};
  const resultName = options.resultName ?? DEFAULT_RESULT_NAME;
  const strictness = options.types ?? 'warn';
  // A repair's own output reads back: its asks are pseudo-steps unless the catalog has an API of the name.
  const pseudoSteps = options.pseudoSteps !== false;
  // label -> index of the latest step that defines it (so far)
  const defined = new Map<string, number>();
  // Labels the run holds before the sequence: a memory item's, an executed call's.
  const held = new Map<string, string>();
  for (const call of options.executed ?? [])
    if (call.label !== undefined) held.set(call.label, 'an executed call');
  for (const label of Object.keys(options.memory ?? {})) held.set(label, 'a memory item');
  const restated = held.size === 0 ? new Set<number>() : restatedSteps(sequence, options.executed ?? []);
  const laterLabels = new Map<string, number>();
  sequence.forEach((s, i) => {
    if (s.label !== undefined && !laterLabels.has(s.label)) laterLabels.set(s.label, i);
  });
  const add = (
    tag: IssueTag,
    step: number,
    message: string,
    extra: Partial<Issue> = {},
    severity: Issue['severity'] = 'error',
  ) => issues.push({ tag, severity, step, message, ...extra });

  if (sequence.length === 0) add('empty_sequence', 0, 'the sequence has no step', {}, 'warning');

  sequence.forEach((step, i) => {
    // A catalog API may share the answer step's name; only the last step can be the answer then.
    const isResult = step.name === resultName && (i === sequence.length - 1 || !apis.has(step.name));
    const api = isResult ? undefined : apis.get(step.name);
    if (isResult && i !== sequence.length - 1) {
      add('unknown_api', i, `${resultName} must be the last step`);
    } else if (!isResult && !api && !(pseudoSteps && isPseudoStepIn(step, apis))) {
      add('unknown_api', i, `unknown API ${JSON.stringify(step.name)}`);
    }
    if (api) checkArguments(step, api, i, strictness, add);
    checkReferences(step, i, {
      api,
      apis,
      sequence,
      defined,
      laterLabels,
      memory,
      strictness,
      add,
      isResult,
    });
    if (!isResult && step.label !== undefined) {
      if (defined.has(step.label)) {
        add(
          'duplicate_label',
          i,
          `label ${step.label} is already used by step ${defined.get(step.label)! + 1}`,
        );
      } else if (held.has(step.label) && !restated.has(i) && !(pseudoSteps && isPseudoStepIn(step, apis))) {
        // (An ask whose answer memory now holds under its label is answered, not overwritten.)
        // Its result would replace what the run already holds under that name.
        add('duplicate_label', i, `label ${step.label} is already ${held.get(step.label)}'s`);
      }
      defined.set(step.label, i);
    }
  });
  if (options.maxTries !== undefined) {
    const skip = (step: Step, i: number) =>
      (step.name === resultName && i === sequence.length - 1) || (pseudoSteps && isPseudoStepIn(step, apis));
    for (const t of triesExceeded(sequence, options.executed ?? [], options.maxTries, skip))
      add('tries_exceeded', t.step, triesMessage(t, options.maxTries));
  }
  return { valid: !issues.some((x) => x.severity === 'error'), issues };
}

type Add = (
  tag: IssueTag,
  step: number,
  message: string,
  extra?: Partial<Issue>,
  severity?: Issue['severity'],
) => void;

function checkArguments(
  step: Step,
  api: ApiSpec,
  i: number,
  strictness: ValidateOptions['types'],
  add: Add,
): void {
  const params = paramsByName(api);
  for (const [name, value] of Object.entries(step.arguments)) {
    const param = params.get(name);
    if (!param) {
      add('unknown_parameter', i, `${api.name} has no parameter ${JSON.stringify(name)}`, { param: name });
      continue;
    }
    if (strictness !== 'off' && isLiteral(value)) {
      const bad = literalMismatch(value, param);
      if (bad)
        add(
          bad.tag,
          i,
          `${name}: ${bad.message}`,
          { param: name },
          strictness === 'strict' ? 'error' : 'warning',
        );
    }
  }
  for (const p of api.params) {
    if (p.required && !Object.prototype.hasOwnProperty.call(step.arguments, p.name)) {
      add('missing_parameter', i, `${api.name} requires ${p.name}`, { param: p.name });
    }
  }
}

interface RefContext {
  api: ApiSpec | undefined;
  apis: Map<string, ApiSpec>;
  sequence: Sequence;
  defined: Map<string, number>;
  laterLabels: Map<string, number>;
  memory: { readonly [label: string]: Json };
  strictness: ValidateOptions['types'];
  add: Add;
  isResult: boolean;
}

function checkReferences(step: Step, i: number, ctx: RefContext): void {
  for (const site of stepReferences(step.arguments)) {
    const { ref, param } = site;
    const where = { param, ref: ref.raw };
    const j = ctx.defined.get(ref.label);
    if (j !== undefined) {
      const producer = ctx.apis.get(ctx.sequence[j].name);
      if (!producer) continue; // reported as unknown_api at step j
      const provides = apiProvides(producer, ref.path);
      if (provides === 'unknown') {
        ctx.add(
          'unchecked_reference',
          i,
          `${producer.name} declares no outputs: ${ref.raw} is unchecked`,
          where,
          'warning',
        );
      } else if (provides === 'no') {
        ctx.add(
          'unknown_field',
          i,
          `${producer.name} (step ${j + 1}) has no output ${normalisePath(ref.path)}`,
          where,
        );
      } else if (site.whole && ctx.api && ctx.strictness !== 'off') {
        checkFlowType(producer, ref.path, ctx.api, param, i, ctx);
      }
    } else if (Object.prototype.hasOwnProperty.call(ctx.memory, ref.label)) {
      if (!memoryProvides(ctx.memory[ref.label], ref.path)) {
        ctx.add(
          'unknown_field',
          i,
          `memory item ${ref.label} has nothing at ${normalisePath(ref.path)}`,
          where,
        );
      }
    } else if (ctx.laterLabels.has(ref.label)) {
      const k = ctx.laterLabels.get(ref.label)!;
      ctx.add(
        'forward_reference',
        i,
        `${ref.raw} refers to step ${k + 1}, which comes ${k === i ? 'at this step' : 'later'}`,
        where,
      );
    } else {
      ctx.add('unknown_label', i, `no earlier step or memory item is labelled ${ref.label}`, where);
    }
  }
}

function checkFlowType(
  producer: ApiSpec,
  path: Json[] | readonly (string | number)[],
  api: ApiSpec,
  param: string,
  i: number,
  ctx: RefContext,
): void {
  const input = api.params.find((p) => p.name === param);
  const field = outputField(producer, normalisePath(path as (string | number)[]));
  if (!input || !field || typesCompatible(field.type, input.type)) return;
  ctx.add(
    'type_mismatch',
    i,
    `${param} expects ${input.type} but ${producer.name}.${field.path} is ${field.type}`,
    { param },
    ctx.strictness === 'strict' ? 'error' : 'warning',
  );
}
