/**
 * Two evidence sets compared on the same repairs (`npm run calibrate`: `core`, the shipped one, against
 * `form`): per measure (each world held out, held-out records, each world on its own plans, the fitted mix),
 * the mean ECE over the worlds, how many are within the target, the mean AUC, the mean share kept at 99 %
 * precision, and how far each edit group's mean confidence is from its right rate.
 */
import type { CalibrationReport, WorldCalibration } from './calibrate.ts';
import { ECE_TARGET } from './calibrate.ts';
import { mean } from '../bench/stats.ts';

/**
 * How far a world's two edit groups (form only, data flow) are from calibrated: each group's |right rate −
 * mean confidence|, weighted by its repairs; NaN without the split.
 */
export function groupGap(world: WorldCalibration): number {
  const g = world.byEdits;
  if (!g || g.form.n + g.flow.n === 0) return NaN;
  const off = (x: typeof g.form) => x.n * Math.abs(x.rightRate - x.meanConfidence);
  return (off(g.form) + off(g.flow)) / (g.form.n + g.flow.n);
}

interface Summary {
  readonly ece: number;
  readonly within: number;
  readonly worlds: number;
  readonly auc: number;
  readonly kept: number;
  readonly gap: number;
}

function summary(worlds: readonly WorldCalibration[]): Summary {
  const known = (xs: number[]) => xs.filter((x) => !Number.isNaN(x));
  return {
    ece: mean(worlds.map((w) => w.ece)),
    within: worlds.filter((w) => w.ece <= ECE_TARGET).length,
    worlds: worlds.length,
    auc: mean(known(worlds.map((w) => w.auc))),
    kept: mean(worlds.map((w) => w.keptAtPrecision)),
    gap: mean(known(worlds.map(groupGap))),
  };
}

const fixed = (x: number, digits: number) => (Number.isNaN(x) ? '–' : x.toFixed(digits));
const pct = (x: number) => (Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)} %`);
const points = (x: number) => (Number.isNaN(x) ? '–' : `${(100 * x).toFixed(1)}`);

/** The measures of `report`, one per row: each world held out, held-out records, own plans, the fitted mix. */
function measures(report: CalibrationReport): [string, Summary][] {
  const records = report.heldOutRecords.filter((w) => !w.set.startsWith('('));
  const rows: [string, readonly WorldCalibration[]][] = [
    ['each world held out', report.heldOut],
    ['held-out records', records],
    ['each world on its own plans', report.ownPlans],
    ['the mix it was fitted on', [report.fitted]],
  ];
  return rows.filter(([, worlds]) => worlds.length > 0).map(([name, worlds]) => [name, summary(worlds)]);
}

/**
 * A table comparing calibrations of the same repairs with two evidence sets, `a → b` in every cell (means over
 * the worlds; "groups off by": the edit groups' weighted distance from calibrated, in points).
 */
export function evidenceComparison(
  a: { readonly name: string; readonly report: CalibrationReport },
  b: { readonly name: string; readonly report: CalibrationReport },
): string[] {
  const left = new Map(measures(a.report));
  const rows = measures(b.report).flatMap(([name, y]) => {
    const x = left.get(name);
    if (!x) return [];
    const cell = (f: (s: Summary) => string) => `${f(x)} → ${f(y)}`;
    return [
      `| ${name} | ${cell((s) => fixed(s.ece, 3))} | ${cell((s) => `${s.within} of ${s.worlds}`)} | ${cell((s) => fixed(s.auc, 3))} | ${cell((s) => pct(s.kept))} | ${cell((s) => points(s.gap))} |`,
    ];
  });
  return [
    `\`${a.name}\` → \`${b.name}\` on the same repairs (means over the worlds; groups off by: each edit group's`,
    'mean confidence against its right rate, weighted by its repairs, in points):',
    '',
    `| measured on | ECE | worlds at ≤ ${ECE_TARGET} | AUC | kept at 99 % | groups off by |`,
    '| --- | ---: | ---: | ---: | ---: | ---: |',
    ...rows,
    '',
  ];
}
