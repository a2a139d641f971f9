/**
 * Judging a repair against the plan it should have restored, from sequences alone:
 * `scoreRepair({input, gold, repaired})` gives one record's verdict, `summariseVerdicts` adds verdicts up.
 * Used by the restoration benchmark and by scored batch summaries.
 */
export { scoreRepair, lostLiterals, droppedCalls, type RepairVerdict, type ScoreInput } from './verdict.ts';
export { summariseVerdicts, mergeScoreSummaries, asksPerRepair, type ScoreSummary } from './summary.ts';
export { sameDataFlow, dataFlowSignature, stepIdentities } from './flow.ts';
export { matchModuloAsks } from './match.ts';
export { readAsks, type AskReading, type AskMeaning } from './asks.ts';
export { roleCollapses, siblingCopies } from './roles.ts';
export { alignCalls } from './align.ts';
export {
  judgeWithCatalog,
  strangerCalls,
  unsupportedWirings,
  NAME_EVIDENCE_SIMILARITY,
  type CatalogJudgement,
  type CatalogScoreInput,
  type StrangerCall,
  type UnsupportedWiring,
} from './strangers.ts';
export { blindPick, type BlindPick } from './blind-pick.ts';
