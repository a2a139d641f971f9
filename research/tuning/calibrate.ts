/**
 * Calibrating confidence on labelled records: each record is repaired with its evidence, judged right when
 * the repair restores the gold modulo unknowns, and the calibration is fitted on them all. Two held-out
 * measures say how it generalises: each world (a record's `set`) held out in turn, fitted on the others (a
 * world never seen: how the calibration transfers), and a share of the gold plans of every world held out,
 * fitted on the rest (records never seen, of worlds that were: a calibration fitted on one's own data).
 */
import type { CostModel } from '../../src/model/cost.ts';
import { FORM_ONLY, weightsDigest, type Calibration } from '../../src/model/calibration.ts';
import { mulberry32 } from '../../src/model/prng.ts';
import { confidenceOf } from '../../src/confidence/confidence.ts';
import { confidenceOfFixes, logit, sameFlow } from '../../src/confidence/alternatives.ts';
import {
  fitAlternatives,
  fitCalibration,
  MIN_SHAPE_WORLDS,
  rankingAuc,
  reliability,
  selective,
  type EvidenceSet,
  type Sample,
} from '../../src/confidence/fit.ts';
import { dataFlowSignature } from '../../src/score/flow.ts';
import type { LabelledRecord } from './dataset.ts';
import { repairRecord, type EvalOptions } from './evaluate.ts';
import { heldOutPlan } from './split.ts';
import { heldOutRefits, refitsSection, type WorldRefits } from './calibrate-refits.ts';

/** The share of gold plans held out for the held-out-records measure, and its seed. */
export const HELD_OUT_PLANS = { fraction: 0.3, seed: 1 } as const;

/** Alternatives per record a calibration collects unless told otherwise (`refract calibrate`, the shipped fit). */
export const DEFAULT_ALTERNATIVES = 3;

export interface LabelledSample extends Sample {
  readonly id: string;
  readonly set: string;
  /** The gold plan's data-flow signature (held-out records are drawn by plan). */
  readonly plan: string;
  /** Fix 2, 3, … (`alternatives`), each with its evidence without `firstLogit`. */
  readonly alternatives?: readonly Sample[];
}

/** Repairs every record with its evidence; valid inputs (confidence 1) and failed repairs have none. */
export async function collectSamples(
  records: readonly LabelledRecord[],
  base: CostModel,
  options: EvalOptions & { log?: (line: string) => void } = {},
): Promise<LabelledSample[]> {
  const { log, ...rest } = options;
  const samples: LabelledSample[] = [];
  for (const [i, record] of records.entries()) {
    const outcome = await repairRecord(record, base, { ...rest, confidenceEvidence: true });
    if (i % 500 === 499) log?.(`calibrate: ${i + 1}/${records.length} records repaired`);
    // Judged as the benchmark judges (restored modulo unknowns; a partial repair is not right).
    if (outcome.evidence) {
      samples.push({
        id: record.id,
        set: record.set,
        plan: dataFlowSignature(record.gold),
        evidence: outcome.evidence,
        right: outcome.restored,
        ...(outcome.alternatives ? { alternatives: outcome.alternatives } : {}),
      });
    }
  }
  return samples;
}

/**
 * The calibration of `model`'s own weights, fitted on labelled records as `refract calibrate` fits it (with
 * DEFAULT_ALTERNATIVES alternatives per record); none when no record was repaired.
 */
export async function calibrateModel(
  records: readonly LabelledRecord[],
  model: CostModel,
  options: EvalOptions & { log?: (line: string) => void; evidence?: EvidenceSet } = {},
): Promise<Calibration | undefined> {
  const { evidence = 'core', ...rest } = options;
  const samples = await collectSamples(records, model, { ...rest, alternatives: DEFAULT_ALTERNATIVES });
  if (samples.length === 0) return undefined;
  const sets = [...new Set(samples.map((s) => s.set))].sort();
  return fitBoth(samples, { weights: weightsDigest(model.weights), l2: 1, sets, evidence });
}

export interface WorldCalibration {
  readonly set: string;
  readonly n: number;
  readonly rightRate: number;
  readonly meanConfidence: number;
  readonly ece: number;
  /** The ECE a perfectly calibrated confidence would show on as many repairs (sampledEce). */
  readonly eceFloor: number;
  readonly topPrecision: number;
  readonly keptAtPrecision: number;
  /** How well the confidences rank the world's repairs (rankingAuc; NaN when all are right or all wrong). */
  readonly auc: number;
  /** The alternatives (fix 2, 3, …) of the world's repairs, when they were collected. */
  readonly alternatives?: AlternativesCalibration;
  /** The world's repairs split by what their edits do (editGroups), when the evidence has `formOnly`. */
  readonly byEdits?: EditGroups;
}

/** Repairs of one group: how many, the share right, their mean confidence. */
export interface GroupCalibration {
  readonly n: number;
  readonly rightRate: number;
  readonly meanConfidence: number;
}

/** A world's repairs whose edits only fix how calls are written (`formOnly`: FORM_KINDS), and the rest. */
export interface EditGroups {
  readonly form: GroupCalibration;
  readonly flow: GroupCalibration;
}

/** How many points, the share right, their mean confidence. */
function groupOf(points: readonly { confidence: number; right: boolean }[]): GroupCalibration {
  return {
    n: points.length,
    rightRate: points.filter((p) => p.right).length / Math.max(1, points.length),
    meanConfidence: points.reduce((a, p) => a + p.confidence, 0) / Math.max(1, points.length),
  };
}

/**
 * The repairs split by their `formOnly` evidence into those whose edits all fix how calls are written and
 * those that supply data flow (a link, an ask, a copied value, a put-back call, a memory item): a world's ECE
 * can hide one group's overconfidence behind the other's underconfidence in the same bins. None when the
 * samples' evidence was read without it.
 */
export function editGroups(
  samples: readonly LabelledSample[],
  points: readonly { confidence: number; right: boolean }[],
): EditGroups | undefined {
  const form: { confidence: number; right: boolean }[] = [];
  const flow: { confidence: number; right: boolean }[] = [];
  samples.forEach((s, i) => {
    const only = s.evidence[FORM_ONLY];
    if (only !== undefined) (only > 0 ? form : flow).push(points[i]);
  });
  return form.length + flow.length === 0 ? undefined : { form: groupOf(form), flow: groupOf(flow) };
}

export interface AlternativesCalibration {
  readonly n: number;
  readonly rightRate: number;
  readonly meanConfidence: number;
  readonly ece: number;
}

export interface CalibrationReport {
  readonly calibration: Calibration;
  /** Each world held out: fitted on the others (empty with one world). */
  readonly heldOut: readonly WorldCalibration[];
  /** Per world, its held-out plans' repairs under the calibration fitted on every other plan. */
  readonly heldOutRecords: readonly WorldCalibration[];
  /** Per world, its held-out plans' repairs under a calibration fitted on its own other plans alone. */
  readonly ownPlans: readonly WorldCalibration[];
  /** The calibration on the records it was fitted on. */
  readonly fitted: WorldCalibration;
  readonly points: readonly { confidence: number; right: boolean }[];
  /** Each held-out world's points, under the calibration fitted without it. */
  readonly heldOutPoints: readonly { set: string; confidence: number; right: boolean }[];
  /** Each held-out world's ECE under calibrations fitted on resampled plans of the others (none without refits). */
  readonly heldOutRefits: readonly WorldRefits[];
}

/** The alternatives' samples, each with fix 1's confidence under `calibration` (`firstLogit`). */
function alternativeSamples(calibration: Calibration, samples: readonly LabelledSample[]): Sample[] {
  return samples.flatMap((s) => {
    const first = logit(confidenceOf(calibration, s.evidence));
    return (s.alternatives ?? []).map((a) => ({
      evidence: { ...a.evidence, firstLogit: first },
      right: a.right,
    }));
  });
}

/** The main calibration and, when alternatives were collected, theirs (`alternatives`). */
function fitBoth(
  samples: readonly LabelledSample[],
  options: Parameters<typeof fitCalibration>[1],
): Calibration {
  const calibration = fitCalibration(samples, options);
  const alternatives = alternativeSamples(calibration, samples);
  if (alternatives.length === 0) return calibration;
  const { l2, iterations, sets } = options;
  // An alternative of fix 1's very data flow takes its confidence (sameFlow): the fit is of the others.
  const scored = alternatives.filter((a) => !sameFlow(a.evidence));
  if (scored.length === 0) return calibration;
  return { ...calibration, alternatives: fitAlternatives(scored, { l2, iterations, sets }) };
}

/** Draws of `sampledEce`: enough for its median to settle at three decimals on a few hundred repairs. */
const FLOOR_DRAWS = 200;

/**
 * The ECE a perfectly calibrated confidence would show on these repairs by sampling alone: each repair drawn
 * right with its own confidence as the chance, ten bins as `reliability`, the median over FLOOR_DRAWS seeded
 * draws. A measured ECE near it is as calibrated as this many repairs can tell.
 */
export function sampledEce(points: readonly { confidence: number }[], seed = 1): number {
  const rng = mulberry32(seed);
  const eces = Array.from(
    { length: FLOOR_DRAWS },
    () => reliability(points.map((p) => ({ confidence: p.confidence, right: rng() < p.confidence }))).ece,
  ).sort((a, b) => a - b);
  return eces[Math.floor(eces.length / 2)];
}

/** How well the confidences of a world's repairs say which are right. */
export function measurePoints(
  set: string,
  points: readonly { confidence: number; right: boolean }[],
): WorldCalibration {
  return {
    set,
    ...groupOf(points),
    ece: reliability(points).ece,
    eceFloor: sampledEce(points),
    ...selective(points),
    auc: rankingAuc(points),
  };
}

/** A calibration measured on sets of samples it was not fitted on, one row per set. */
export function calibrationOn(
  calibration: Calibration,
  sets: Readonly<Record<string, readonly LabelledSample[]>>,
): WorldCalibration[] {
  return Object.entries(sets).map(([set, samples]) => measure(set, calibration, samples).world);
}

/** The table of calibration measures, one row per world (`label` heads the first column). */
export function calibrationTable(worlds: readonly WorldCalibration[], label = 'world'): string[] {
  return [
    `| ${label} | repairs | right | mean confidence | ECE | ECE if calibrated | top 90 % | kept at 99 % | AUC |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...worlds.map(
      (w) =>
        `| ${w.set} | ${w.n} | ${pct(w.rightRate)} | ${w.meanConfidence.toFixed(3)} | ${w.ece.toFixed(3)} | ${w.eceFloor.toFixed(3)} | ${pct(w.topPrecision)} | ${pct(w.keptAtPrecision)} | ${Number.isNaN(w.auc) ? '–' : w.auc.toFixed(3)} |`,
    ),
  ];
}

function measure(set: string, calibration: Calibration, samples: readonly LabelledSample[]) {
  const points = samples.map((s) => ({ confidence: confidenceOf(calibration, s.evidence), right: s.right }));
  // Scored as a repair scores them (confidenceOfFixes), fix 1's confidence and all.
  const alternatives = calibration.alternatives
    ? samples.flatMap((s, i) =>
        confidenceOfFixes(
          calibration.alternatives!,
          points[i].confidence,
          (s.alternatives ?? []).map((a) => a.evidence),
        ).map((c, k) => ({ confidence: c.confidence, right: s.alternatives![k].right })),
      )
    : [];
  const byEdits = editGroups(samples, points);
  const world: WorldCalibration = {
    ...measurePoints(set, points),
    ...(byEdits ? { byEdits } : {}),
    ...(alternatives.length > 0
      ? {
          alternatives: { ...groupOf(alternatives), ece: reliability(alternatives).ece },
        }
      : {}),
  };
  return { world, points };
}

export function calibrate(
  samples: readonly LabelledSample[],
  base: CostModel,
  l2 = 1,
  evidence: EvidenceSet = 'core',
  refits = 0,
): CalibrationReport {
  const weights = weightsDigest(base.weights);
  const sets = [...new Set(samples.map((s) => s.set))].sort();
  const held =
    sets.length < 2
      ? []
      : sets.map((set) => {
          const train = samples.filter((s) => s.set !== set);
          const fitted = fitBoth(train, { weights, l2, evidence });
          return measure(
            set,
            fitted,
            samples.filter((s) => s.set === set),
          );
        });
  const calibration = fitBoth(samples, { weights, l2, sets, evidence });
  const { world, points } = measure('(all, fitted)', calibration, samples);
  const isHeld = (s: LabelledSample) => heldOutPlan(s.plan, HELD_OUT_PLANS.fraction, HELD_OUT_PLANS.seed);
  const heldRecords = samples.filter(isHeld);
  const trainRecords = samples.filter((s) => !isHeld(s));
  // A few plans may all fall in the held-out share: nothing is left to fit on, and the table is left out.
  const onPlans =
    heldRecords.length === 0 || trainRecords.length === 0
      ? undefined
      : fitBoth(trainRecords, { weights, l2, evidence });
  const heldOutRecords = onPlans
    ? [
        ...sets.flatMap((set) => {
          const of = heldRecords.filter((s) => s.set === set);
          return of.length === 0 ? [] : [measure(set, onPlans, of).world];
        }),
        measure('(all held-out records)', onPlans, heldRecords).world,
      ]
    : [];
  // A team calibrating on a labelled sample of its own data: each world fitted on its own training plans.
  const ownPlans = sets.flatMap((set) => {
    const mine = samples.filter((s) => s.set === set);
    const test = mine.filter(isHeld);
    const fit = mine.filter((s) => !isHeld(s));
    if (test.length === 0 || fit.length === 0 || fit.every((s) => s.right === fit[0].right)) return [];
    return [measure(set, fitBoth(fit, { weights, l2, evidence }), test).world];
  });
  return {
    calibration,
    heldOut: held.map((h) => h.world),
    heldOutRecords,
    ownPlans,
    fitted: world,
    points,
    heldOutPoints: held.flatMap((h) => h.points.map((p) => ({ set: h.world.set, ...p }))),
    heldOutRefits: heldOutRefits(samples, { l2, evidence, refits, target: ECE_TARGET }),
  };
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

/** The alternatives' table (fix 2, 3, …), when they were collected. */
function alternativesTable(worlds: readonly WorldCalibration[]): string[] {
  const rows = worlds.filter((w) => w.alternatives);
  if (rows.length === 0) return [];
  return [
    'Alternatives (`fixes`: fix 2, 3, …), each scored by the alternatives’ calibration fitted as above:',
    '',
    '| world | alternatives | right | mean confidence | ECE |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows.map((w) => {
      const a = w.alternatives!;
      return `| ${w.set} | ${a.n} | ${pct(a.rightRate)} | ${a.meanConfidence.toFixed(3)} | ${a.ece.toFixed(3)} |`;
    }),
    '',
  ];
}

/**
 * Per world, the repairs that fix only how calls are written and those that supply data flow: how many, how
 * many right, how confident (empty when no world's evidence has `formOnly`).
 */
function editGroupsTable(worlds: readonly WorldCalibration[]): string[] {
  const rows = worlds.filter((w) => w.byEdits);
  if (rows.length === 0) return [];
  const cells = (g: GroupCalibration) =>
    g.n === 0 ? '0 | – | –' : `${g.n} | ${pct(g.rightRate)} | ${g.meanConfidence.toFixed(3)}`;
  return [
    'The repairs of the table above by what they do: **form only**, every edit fixes how a call is written (a name,',
    'a label, the order, an argument the API does not take, a repeated call), and **data flow**, the repair',
    'supplies a link, an ask, a copied value, a put-back call or a memory item. A world’s ECE sums the two',
    'groups within each bin, where one’s underconfidence can hide the other’s overconfidence:',
    '',
    '| world | form only | right | mean confidence | data flow | right | mean confidence |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map((w) => `| ${w.set} | ${cells(w.byEdits!.form)} | ${cells(w.byEdits!.flow)} |`),
    '',
  ];
}

/** The ECE a calibration should reach on every held-out world (issue target; the page says how many do). */
export const ECE_TARGET = 0.03;

/**
 * One line over the held-out worlds: their mean and worst ECE, how many are within ECE_TARGET, and the range of
 * their top-90 % precision (empty with fewer than two worlds).
 */
export function heldOutSummary(worlds: readonly WorldCalibration[]): string[] {
  if (worlds.length < 2) return [];
  const worst = worlds.reduce((a, w) => (w.ece > a.ece ? w : a));
  const mean = worlds.reduce((a, w) => a + w.ece, 0) / worlds.length;
  const within = worlds.filter((w) => w.ece <= ECE_TARGET).length;
  const tops = worlds.map((w) => w.topPrecision);
  const floors = worlds.map((w) => w.eceFloor);
  const aucs = worlds.map((w) => w.auc).filter((a) => !Number.isNaN(a));
  const auc =
    aucs.length === 0 ? '' : `; AUC ${Math.min(...aucs).toFixed(2)} to ${Math.max(...aucs).toFixed(2)}`;
  return [
    `Over the ${worlds.length} held-out worlds: ECE mean ${mean.toFixed(3)}, worst ${worst.ece.toFixed(3)} (${worst.set}), ` +
      `${within} of ${worlds.length} at ${ECE_TARGET} or less (${Math.min(...floors).toFixed(3)} to ${Math.max(...floors).toFixed(3)} if calibrated); top 90 % ${pct(Math.min(...tops))} to ${pct(Math.max(...tops))}${auc}.`,
    '',
  ];
}

/**
 * The evidence the fitted score reads, by name: a name left out had no spread on the records, or is the input's
 * shape on records of one world (`minShapeWorlds`).
 */
function evidenceRead(calibration: Calibration): string[] {
  const names = calibration.evidence.map((n) => `\`${n}\``).join(', ');
  const worlds = calibration.fitted.sets?.length;
  const oneWorld = worlds !== undefined && worlds < MIN_SHAPE_WORLDS;
  return [
    `The score reads ${calibration.evidence.length} evidence values: ${names}.` +
      (oneWorld
        ? " Not the input's shape: the records are of one world (`minShapeWorlds`), where it tells plans apart, not worlds."
        : ''),
    '',
  ];
}

export function calibrationPage(report: CalibrationReport, header: string): string {
  const bins = reliability(report.points).bins;
  return [
    header,
    '',
    'Right = restored modulo unknowns. ECE over ten bins of confidence; top 90 % = precision of the 90 % most',
    'confident repairs; kept at 99 % = the largest share of most confident repairs that is 99 % right; AUC = the',
    'chance that a right repair is more confident than a wrong one (ties half): how well the confidence ranks',
    'repairs within a world, which calibration alone does not say (0.5: no better than chance); ECE if calibrated =',
    'the ECE a perfectly calibrated confidence would show on as many repairs by sampling alone (the median of 200',
    'draws, each repair right with its own confidence as the chance): an ECE near it is as good as they can tell.',
    '',
    report.heldOut.length > 0
      ? 'Each world held out (the calibration fitted on the other worlds):'
      : `One world (the records’ \`set\`): none to hold out, so the table has the fit on every repair alone${report.heldOutRecords.length > 0 ? '; the held-out records below measure it on plans it did not see' : ''}.`,
    '',
    ...calibrationTable([...report.heldOut, report.fitted]),
    '',
    ...heldOutSummary(report.heldOut),
    ...refitsSection(report.heldOutRefits, new Map(report.heldOut.map((w) => [w.set, w.ece])), ECE_TARGET),
    ...editGroupsTable([...report.heldOut, report.fitted]),
    ...(report.heldOutRecords.length === 0
      ? []
      : [
          `Held-out records of every world (${pct(HELD_OUT_PLANS.fraction)} of the gold plans, seed ${HELD_OUT_PLANS.seed}; the`,
          'calibration fitted on the repairs of every other plan):',
          '',
          ...calibrationTable(report.heldOutRecords),
          '',
        ]),
    ...(report.ownPlans.length === 0
      ? []
      : [
          'Each world calibrated on its own plans alone (fitted on its other plans, as a team would on a labelled',
          'sample of its own data):',
          '',
          ...calibrationTable(report.ownPlans),
          '',
        ]),
    ...alternativesTable([...report.heldOut, report.fitted]),
    ...evidenceRead(report.calibration),
    '| confidence | repairs | mean confidence | right |',
    '| --- | ---: | ---: | ---: |',
    ...bins.map(
      (b) =>
        `| ${b.lower.toFixed(1)}–${b.upper.toFixed(1)} | ${b.n} | ${b.meanConfidence.toFixed(3)} | ${pct(b.rightRate)} |`,
    ),
    '',
  ].join('\n');
}
