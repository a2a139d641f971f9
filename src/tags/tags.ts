/**
 * Error tags in the vocabulary of the NESTFUL error tagger, against a gold sequence (alignment by API
 * name and data flow) or, without one, derived from the validator's issues. Definitions and examples:
 * docs/error-tags.md.
 */
import type { Catalog, Issue, Sequence } from '../model/types.ts';
import { apiByName, validate } from '../validate/validate.ts';
import { DEFAULT_RESULT_NAME } from '../model/constants.ts';
import { align, canonicalJson, inGoldLabels } from './align.ts';
import { issueTag, tagFromIssues } from './issue-tags.ts';
import {
  ERROR_TAGS,
  fromIssue,
  order,
  type ErrorTag,
  type ErrorTagName,
  type TagOptions,
} from './tag-types.ts';

export { ERROR_TAGS, tagFromIssues, type ErrorTag, type ErrorTagName, type TagOptions };

/** Tags of a predicted sequence: against `options.gold` when given, else from validator issues. */
export function errorTags(pred: Sequence, catalog: Catalog, options: TagOptions = {}): ErrorTag[] {
  return options.gold
    ? tagAgainstGold(pred, options.gold, catalog, options)
    : tagFromIssues(pred, catalog, options);
}

/** Per-tag counts over many tag lists (a batch): occurrences and sequences carrying the tag. */
export function countTags(
  lists: Iterable<readonly ErrorTag[]>,
): Record<ErrorTagName, { tags: number; sequences: number }> {
  const out = Object.fromEntries(ERROR_TAGS.map((t) => [t, { tags: 0, sequences: 0 }])) as Record<
    ErrorTagName,
    { tags: number; sequences: number }
  >;
  for (const tags of lists) {
    for (const t of tags) out[t.tag].tags++;
    for (const name of new Set(tags.map((t) => t.tag))) out[name].sequences++;
  }
  return out;
}

export function tagAgainstGold(
  pred: Sequence,
  gold: Sequence,
  catalog: Catalog,
  options: TagOptions = {},
): ErrorTag[] {
  const resultName = options.resultName ?? DEFAULT_RESULT_NAME;
  const apis = apiByName(catalog);
  const { toGold, toPred } = align(pred, gold, catalog, { resultName });
  const tags: ErrorTag[] = [];
  const goldNames = new Set(gold.map((s) => s.name));
  pred.forEach((step, i) => {
    if (step.name === resultName) return;
    const j = toGold[i];
    if (j === undefined) {
      if (!apis.has(step.name))
        tags.push({ tag: 'made_up_api', step: i, detail: `unknown API ${step.name}` });
      else if (!goldNames.has(step.name))
        tags.push({ tag: 'new_call', step: i, detail: `${step.name} is not called in the gold sequence` });
      else
        tags.push({
          tag: 'bad_repeat',
          step: i,
          detail: `${step.name} is called more often than in the gold sequence`,
        });
      return;
    }
    const g = gold[j];
    if (g.name !== step.name)
      tags.push({ tag: 'made_up_api', step: i, goldStep: j, detail: `${step.name} instead of ${g.name}` });
    for (const param of Object.keys(g.arguments)) {
      if (!has(step.arguments, param)) {
        tags.push({
          tag: 'missing_parameter',
          step: i,
          goldStep: j,
          param,
          detail: `${param} is not passed`,
        });
      }
    }
    for (const [param, value] of Object.entries(step.arguments)) {
      if (!has(g.arguments, param)) {
        const where = apis.get(g.name)?.params.some((p) => p.name === param)
          ? 'the gold call'
          : 'the catalog';
        tags.push({
          tag: 'made_up_parameter',
          step: i,
          goldStep: j,
          param,
          detail: `${param} is not in ${where}`,
        });
      } else if (
        canonicalJson(inGoldLabels(pred, gold, toGold, i, value)) !== canonicalJson(g.arguments[param])
      ) {
        const expected = JSON.stringify(g.arguments[param]);
        tags.push({
          tag: 'wrong_assignment',
          step: i,
          goldStep: j,
          param,
          detail: `${param}=${JSON.stringify(value)}, gold ${expected}`,
        });
      }
    }
  });
  // What the prediction passes where the gold passes the same (in gold labels).
  const sameAsGold = (step: number, param: string | undefined): boolean => {
    const j = toGold[step];
    if (j === undefined || param === undefined || !has(gold[j].arguments, param)) return false;
    const value = inGoldLabels(pred, gold, toGold, step, pred[step].arguments[param]);
    return canonicalJson(value) === canonicalJson(gold[j].arguments[param]);
  };
  // A broken reference the gold call makes too is the gold's own doing (some NESTFUL gold calls
  // contradict their spec): it is not held against a prediction that copies it.
  const goldBroken = new Set(
    referenceIssues(gold, catalog, options).map((x) => `${x.step}|${x.param}|${x.tag}`),
  );
  for (const issue of referenceIssues(pred, catalog, options)) {
    const same = sameAsGold(issue.step, issue.param);
    if (same && goldBroken.has(`${toGold[issue.step]}|${issue.param}|${issue.tag}`)) continue;
    // An unknown label where the gold passes the same reference names an item that is missing; one
    // where the gold passes something else is made up.
    let tag = issueTag(issue, pred, catalog, resultName)!;
    if (issue.tag === 'unknown_label' && toGold[issue.step] !== undefined) {
      tag = same ? 'missing_memory' : 'made_up_assignment';
    }
    tags.push(fromIssue(tag, issue));
  }
  gold.forEach((g, j) => {
    if (toPred[j] !== undefined || g.name === resultName) return;
    // The missing call belongs before the first predicted step aligned with a later gold step.
    const next = toPred.slice(j + 1).find((i) => i !== undefined && pred[i].name !== resultName);
    const resultAt = pred.findIndex((s) => s.name === resultName);
    const step = next ?? (resultAt === -1 ? pred.length : resultAt);
    const label = g.label ? `${g.label} = ` : '';
    tags.push({ tag: 'missing_call', step, goldStep: j, detail: `${label}${g.name} is missing` });
  });
  return order(tags);
}

const REFERENCE_ISSUES = new Set(['unknown_field', 'unknown_label', 'forward_reference']);

/** Reference problems found by the validator: fields a producer lacks, items not in memory. */
function referenceIssues(sequence: Sequence, catalog: Catalog, options: TagOptions): Issue[] {
  const { issues } = validate(sequence, catalog, {
    memory: options.memory,
    resultName: options.resultName,
    types: 'off',
  });
  return issues.filter((issue) => REFERENCE_ISSUES.has(issue.tag));
}

function has(args: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(args, key);
}
