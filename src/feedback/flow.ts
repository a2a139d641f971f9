/** The `explain` (data flow per call) and `trace` (memory after each step) feedback formats. */
import type { ApiSpec, Catalog, Json, Memory, Reference, Sequence, Step } from '../model/types.ts';
import { normalisePath, referenceSites } from '../read/references.ts';
import { apiProvides, memoryProvides } from '../validate/outputs.ts';
import { apiByName } from '../validate/validate.ts';
import { callTitle, formatFields, formatValue, memoryFields, stepTitle, topFields } from './render.ts';
import { stepNumber } from '../model/numbers.ts';

export interface FlowInput {
  readonly sequence: Sequence;
  readonly catalog: Catalog;
  readonly memory?: Memory;
  /** Name of the answer pseudo-step. */
  readonly resultName: string;
}

function describeSource(ref: Reference, at: number, defined: Map<string, number>, input: FlowInput): string {
  const { sequence, memory = {} } = input;
  const j = defined.get(ref.label);
  const field = ref.path.length === 0 ? 'whole output' : `field ${normalisePath(ref.path)}`;
  if (j !== undefined) {
    const producer = apiByName(input.catalog).get(sequence[j].name);
    const from = `from ${stepTitle(sequence, j)}`;
    if (ref.path.length === 0) return `${from}, whole output`;
    if (!producer) return `${from}, ${field} (unknown API)`;
    const provides = apiProvides(producer, ref.path);
    if (provides === 'no') return `${from}, ${field} (not an output of ${producer.name})`;
    return provides === 'unknown' ? `${from}, ${field} (unchecked: outputs undeclared)` : `${from}, ${field}`;
  }
  if (Object.prototype.hasOwnProperty.call(memory, ref.label)) {
    const ok = memoryProvides(memory[ref.label], ref.path);
    return `from memory item ${ref.label}, ${field}${ok ? '' : ' (not in memory)'}`;
  }
  const later = sequence.findIndex((s, k) => k >= at && s.label === ref.label && s.name !== input.resultName);
  if (later !== -1) return `from ${stepTitle(sequence, later)}, which is not run yet (unavailable)`;
  return `from nowhere: no earlier step or memory item is labelled ${ref.label}`;
}

function describeArgument(
  param: string,
  value: Json,
  at: number,
  defined: Map<string, number>,
  input: FlowInput,
): string {
  const sites = referenceSites(param, value);
  if (sites.length === 0) return `literal ${formatValue(value)}`;
  const [first] = sites;
  if (sites.length === 1 && first.whole && first.at.length === 0) {
    return `${first.ref.raw} ${describeSource(first.ref, at, defined, input)}`;
  }
  const parts = sites.map((s) => `${s.ref.raw} ${describeSource(s.ref, at, defined, input)}`);
  return `${typeof value === 'string' ? 'text' : 'value'} ${formatValue(value)} with ${parts.join('; ')}`;
}

function produces(step: Step, api: ApiSpec | undefined, replaces: boolean): string {
  if (step.label === undefined) return 'produces an output without a label (later calls cannot use it)';
  const again = replaces ? ` (replaces the earlier ${step.label})` : '';
  if (!api) return `produces ${step.label} with unknown fields (unknown API)${again}`;
  return `produces ${formatFields(step.label, topFields(api))}${again}`;
}

/** For every call: what it consumes and from where (literal, earlier call, memory), and what it produces. */
export function explainText(input: FlowInput): string {
  const { sequence, memory = {} } = input;
  const apis = apiByName(input.catalog);
  const defined = new Map<string, number>();
  const lines: string[] = [];
  const items = Object.keys(memory);
  if (items.length > 0)
    lines.push(`memory: ${items.map((k) => formatFields(k, memoryFields(memory[k]))).join(', ')}`);
  sequence.forEach((step, i) => {
    const isResult = step.name === input.resultName;
    const api = isResult ? undefined : apis.get(step.name);
    const known = isResult || api !== undefined;
    lines.push(`${stepTitle(sequence, i)}${isResult ? ': the answer' : known ? '' : ': unknown API'}`);
    const accepted = new Set(api?.params.map((p) => p.name));
    for (const [param, value] of Object.entries(step.arguments)) {
      const extra = api && !accepted.has(param) ? ` (not a parameter of ${api.name})` : '';
      lines.push(`  consumes ${param}: ${describeArgument(param, value, i, defined, input)}${extra}`);
    }
    for (const p of api?.params ?? []) {
      if (p.required && !Object.prototype.hasOwnProperty.call(step.arguments, p.name)) {
        lines.push(`  misses ${p.name} (required, not passed)`);
      }
    }
    if (!isResult) {
      lines.push(`  ${produces(step, api, step.label !== undefined && defined.has(step.label))}`);
      if (step.label !== undefined) defined.set(step.label, i);
    }
  });
  return lines.join('\n');
}

/** The memory after each step: which labels exist, and the fields each step adds. */
export function traceText(input: FlowInput): string {
  const { sequence, memory = {} } = input;
  const apis = apiByName(input.catalog);
  const labels = new Set<string>(Object.keys(memory));
  const start = Object.keys(memory).map((k) => formatFields(k, memoryFields(memory[k])));
  const lines = [`memory at start: ${start.length > 0 ? start.join(', ') : '(empty)'}`];
  sequence.forEach((step, i) => {
    let change: string;
    if (step.name === input.resultName) change = 'the answer, stores nothing';
    else if (step.label === undefined) change = 'stores nothing (no label)';
    else {
      const api = apis.get(step.name);
      const verb = labels.has(step.label) ? 'replaces' : 'adds';
      change = api
        ? `${verb} ${formatFields(step.label, topFields(api))}`
        : `${verb} ${step.label} with unknown fields (unknown API)`;
      labels.add(step.label);
    }
    const present = [...labels];
    lines.push(
      `after step ${stepNumber(i)} (${callTitle(step)}): ${change}; labels ${present.length > 0 ? present.join(', ') : '(none)'}`,
    );
  });
  return lines.join('\n');
}
