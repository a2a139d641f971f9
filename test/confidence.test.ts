import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFor, repair } from '../src/repair/repair.ts';
import { resultJson, resultText } from '../src/api/render.ts';
import { getSolver } from '../src/solvers/index.ts';
import { choicePoints, excludeFlow } from '../src/confidence/alternative.ts';
import type { Plan } from '../src/compile/plan.ts';
import type { MilpModel } from '../src/model/milp.ts';
import { alternativesEvidence } from '../src/confidence/alternatives.ts';
import { loadCatalog } from '../src/read/catalog.ts';
import { loadCostModel, parseCostModel, withWeights } from '../src/read/cost-models.ts';
import { parseSequenceText } from '../src/read/sequence.ts';
import {
  fitCalibration,
  isotonicSteps,
  rankingAuc,
  reliability,
  selective,
  type EvidenceSet,
  type Sample,
} from '../src/confidence/fit.ts';
import { mulberry32 } from '../src/model/prng.ts';
import { calibrationScore, confidenceOf } from '../src/confidence/confidence.ts';
import { CalibrationSchema, weightsDigest } from '../src/model/calibration.ts';

const catalog = loadCatalog('data/nestful/executable-spec.json');
interface CaseFile {
  readonly catalog: string;
  readonly input: string[];
  readonly options: Record<string, unknown>;
}
const inputOf = (name: string) =>
  parseSequenceText(
    (JSON.parse(readFileSync(`test/cases/${name}.json`, 'utf8')) as { input: string[] }).input.join('\n'),
  );

describe('isotonic steps', () => {
  it('pool on the rate they report: a few right points above many nearly all right never say less', () => {
    // 99 of 100 right, then 2 of 2 right at higher scores: raw rates 0.99 < 1, reported (smoothed) 0.98 > 0.75.
    const points = [
      ...Array.from({ length: 100 }, (_, i) => ({ score: 0.5 + i / 1000, right: i !== 99 })),
      { score: 0.9, right: true },
      { score: 0.95, right: true },
    ];
    const steps = isotonicSteps(points);
    const ps = steps.map(([, p]) => p);
    expect(ps).toEqual([...ps].sort((a, b) => a - b));
    expect(steps[steps.length - 1][0]).toBe(0.95);
    expect(steps[steps.length - 1][1]).toBeGreaterThanOrEqual(100 / 102);
  });

  it('are non-decreasing, pool violators and never say a certain 1 or 0', () => {
    const points = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6].map((score, i) => ({
      score,
      right: [0, 1, 0, 1, 1, 1][i] === 1,
    }));
    const steps = isotonicSteps(points);
    const ps = steps.map(([, p]) => p);
    expect(ps).toEqual([...ps].sort((a, b) => a - b));
    // 0.2 (right) and 0.3 (wrong) violate the order and pool into one step of rate (1 + 1) / (2 + 2).
    expect(steps.find(([upper]) => upper === 0.3)![1]).toBeCloseTo(0.5);
    expect(Math.max(...ps)).toBeLessThan(1);
    expect(Math.min(...ps)).toBeGreaterThan(0);
  });
});

describe('reliability and selective precision', () => {
  it('compute ECE over ten bins and the precision of the most confident', () => {
    const points = [
      { confidence: 0.95, right: true },
      { confidence: 0.95, right: true },
      { confidence: 0.55, right: false },
      { confidence: 0.55, right: true },
    ];
    const { ece, bins } = reliability(points);
    expect(bins).toHaveLength(2);
    expect(ece).toBeCloseTo(0.5 * 0.05 + 0.5 * 0.05);
    expect(selective(points, 0.5).topPrecision).toBe(1);
    expect(selective(points, 0.5).keptAtPrecision).toBe(0.5);
    // A cut inside points of one confidence counts them at their right rate, whatever their order.
    const tied = [true, false, true, true, false].map((right) => ({ confidence: 0.8, right }));
    for (const order of [tied, [...tied].reverse()])
      expect(selective([{ confidence: 0.9, right: true }, ...order], 0.5).topPrecision).toBeCloseTo(
        (1 + 2 * 0.6) / 3,
      );
  });

  it('rank repairs by the AUC: a right one above a wrong one counts 1, a tie a half, against every pair', () => {
    const p = (confidence: number, right: boolean) => ({ confidence, right });
    // Right 0.9 and 0.55 against wrong 0.55: 1 + 0.5 of 2 pairs.
    expect(rankingAuc([p(0.9, true), p(0.55, true), p(0.55, false)])).toBeCloseTo(0.75, 12);
    expect(rankingAuc([p(0.2, true), p(0.8, false)])).toBe(0);
    expect(rankingAuc([p(0.8, true), p(0.2, false), p(0.5, true), p(0.6, false)])).toBeCloseTo(0.75, 12);
    // Against every pair counted by hand, on random points with ties.
    const rand = mulberry32(7);
    const points = Array.from({ length: 200 }, () => p(Math.round(rand() * 20) / 20, rand() < 0.7));
    let wins = 0;
    let pairs = 0;
    for (const a of points)
      for (const b of points)
        if (a.right && !b.right) {
          pairs++;
          wins += a.confidence > b.confidence ? 1 : a.confidence === b.confidence ? 0.5 : 0;
        }
    expect(rankingAuc(points)).toBeCloseTo(wins / pairs, 12);
    expect(rankingAuc([p(0.9, true), p(0.1, true)])).toBeNaN();
  });
});

describe('fitting a calibration', () => {
  it('ranks by the evidence that tells right from wrong, and its steps are calibrated on the fit', () => {
    const samples: Sample[] = [];
    for (let i = 0; i < 200; i++) {
      const gap = (i % 20) / 4;
      // Right more often with a wider gap; the noise feature says nothing.
      samples.push({ evidence: { logGap: gap, noise: (i * 7) % 3 }, right: (i * 37) % 100 < 20 + gap * 15 });
    }
    const calibration = CalibrationSchema.parse(fitCalibration(samples, { weights: 'test' }));
    const gapAt = calibration.evidence.indexOf('logGap');
    expect(calibration.coefficients[gapAt]).toBeGreaterThan(0);
    expect(calibrationScore(calibration, { logGap: 4 })).toBeGreaterThan(
      calibrationScore(calibration, { logGap: 0 }),
    );
    const points = samples.map((s) => ({
      confidence: confidenceOf(calibration, s.evidence),
      right: s.right,
    }));
    expect(reliability(points).ece).toBeLessThan(0.05);
  });
});

describe('which edit kinds a calibration reads', () => {
  it('only a kind the labels show right at least minKindRight times: one never right says nothing of intent', () => {
    const samples: Sample[] = [];
    for (let i = 0; i < 120; i++) {
      const right = i % 3 !== 0;
      const kinds: Record<string, number> = { 'kind.reassign': 1 };
      // Inserted calls only on wrong repairs; renamed APIs on right ones.
      if (!right && i % 2 === 0) kinds['kind.insertCall'] = 1;
      if (right && i % 5 === 0) kinds['kind.renameApi'] = 1;
      samples.push({ evidence: { logGap: (i % 7) / 3, asks: i % 2, ...kinds }, right });
    }
    const read = (options: { minKindRight?: number; evidence?: 'core' | 'kinds' }) =>
      fitCalibration(samples, { weights: 'test', evidence: 'kinds', ...options }).evidence;
    expect(read({})).toContain('kind.renameApi');
    expect(read({})).not.toContain('kind.insertCall');
    expect(read({ minKindRight: 0 })).toContain('kind.insertCall');
    // The default reads no counts at all.
    expect(read({ evidence: 'core' }).filter((name) => name.startsWith('kind.'))).toEqual([]);
    const byDefault = fitCalibration(samples, { weights: 'test' }).evidence;
    expect(byDefault.filter((name) => name.startsWith('kind.'))).toEqual([]);
  });

  it('whether every edit is of form (formOnly) is read from `form` on, the counts from `kinds` on', () => {
    const samples: Sample[] = Array.from({ length: 60 }, (_, i) => ({
      evidence: {
        logGap: (i % 7) / 3,
        asks: i % 2,
        formOnly: i % 3 === 0 ? 1 : 0,
        'kind.renameApi': i % 3 === 0 ? 1 : 0,
      },
      right: i % 3 === 0 || i % 4 !== 0,
    }));
    const read = (evidence?: EvidenceSet) => fitCalibration(samples, { weights: 'test', evidence }).evidence;
    expect(read()).not.toContain('formOnly');
    expect(read('form')).toContain('formOnly');
    expect(read('form')).not.toContain('kind.renameApi');
    expect(read('kinds')).toEqual(expect.arrayContaining(['formOnly', 'kind.renameApi']));
  });
});

describe('when a calibration reads the input’s shape', () => {
  it('only across worlds (minShapeWorlds): within one it tells one plan’s records from another’s', () => {
    const samples = (sets: string[]): Sample[] =>
      Array.from({ length: 80 }, (_, i) => ({
        evidence: { logGap: (i % 7) / 3, asks: i % 2, namedRefs: (i % 4) / 4, refsPerStep: i % 3 },
        right: i % 3 !== 0,
        set: sets[i % sets.length],
      }));
    const read = (sets: string[], minShapeWorlds?: number) =>
      fitCalibration(samples(sets), { weights: 'test', minShapeWorlds }).evidence;
    expect(read(['a', 'b'])).toEqual(expect.arrayContaining(['namedRefs', 'refsPerStep']));
    expect(read(['a'])).not.toContain('namedRefs');
    expect(read(['a'])).toContain('logGap');
    expect(read(['a', 'b'], 3)).not.toContain('refsPerStep');
    expect(read(['a'], 1)).toContain('refsPerStep');
  });
});

describe('a repair’s confidence (the real solver)', () => {
  // The shipped default's weights without its calibration.
  const { calibration: shipped, ...base } = loadCostModel('default');
  it('the shipped default is calibrated for its own weights', async () => {
    expect(shipped?.weights).toBe(weightsDigest(base.weights));
    const result = await repair(inputOf('missing-step'), catalog);
    expect(result.confidence).toBeGreaterThan(0);
    expect(result.confidence).toBeLessThan(1);
  });

  it('a repair the time limit left unproven says so in reason, with its gap', async () => {
    const highs = getSolver('highs');
    // The solver's incumbent when the time ran out: a point, not proven optimal.
    const backend = {
      name: 'highs',
      solve: async (model: MilpModel, options: object) => ({
        ...(await highs.solve(model, options)),
        status: 'timeout' as const,
        optimal: false,
        gap: 0.25,
      }),
    };
    const r = await repair(inputOf('missing-step'), catalog, { backend, confidence: false });
    expect(r.status).toBe('timeout');
    expect(r.gap).toBe(0.25);
    expect(r.reason).toBe('the time limit came before the solver proved this repair optimal (gap 0.25)');
  });

  it('says so when the solve for the next-best repair was cut short: that confidence reads no gap', async () => {
    const highs = getSolver('highs');
    let calls = 0;
    // The repair's own solve is the real one; the second runs out of time, as a tight --timeout may make it.
    const backend = {
      name: 'highs',
      solve: (model: MilpModel, options: object) =>
        ++calls === 1
          ? highs.solve(model, options)
          : Promise.resolve({ status: 'timeout' as const, optimal: false, solver: 'highs', timeMs: 1 }),
    };
    const cut = await repair(inputOf('missing-step'), catalog, { backend });
    const full = await repair(inputOf('missing-step'), catalog);
    expect(cut.status).toBe('repaired');
    expect(cut.sequence).toEqual(full.sequence);
    expect(cut.confidence).toBeGreaterThan(0);
    expect(cut.reason).toBe(
      'the solve for the next-best repair ran out of time: the confidence reads no cost gap',
    );
    expect(full.reason).toBeUndefined();
    calls = 0;
    const again = await repair(inputOf('missing-step'), catalog, { backend, minConfidence: 1 });
    expect(again.status).toBe('uncertain');
    expect(again.reason).toMatch(
      /is below minConfidence 1; the solve for the next-best repair ran out of time/,
    );
  });

  it('reads the gap to the best different repair, and needs a calibration to report one', async () => {
    const result = await repair(inputOf('missing-step'), catalog, { cost: base, confidenceEvidence: true });
    expect(result.status).toBe('repaired');
    expect(result.confidence).toBeUndefined();
    const evidence = result.evidence!;
    expect(evidence.logGap).toBeGreaterThan(0);
    expect(evidence['kind.insertCall'] ?? evidence['kind.restoreStep']).toBeGreaterThan(0);
    // A put-back call supplies data flow; a renamed API only fixes how a call is written.
    expect(evidence.formOnly).toBe(0);
    const renamed = await repair(inputOf('made-up-api'), catalog, { cost: base, confidenceEvidence: true });
    expect(renamed.edits.map((e) => e.kind)).toEqual(['renameApi']);
    expect(renamed.evidence!.formOnly).toBe(1);
    const skipped = await repair(inputOf('missing-step'), catalog, {
      cost: base,
      confidence: false,
      confidenceEvidence: true,
    });
    expect(skipped.evidence).toBeUndefined();
  });

  it('reads the edit kinds and feature totals only where the calibration or the caller does', async () => {
    const input = inputOf('missing-step');
    const withEvidence = await repair(input, catalog, { confidenceEvidence: true });
    const plain = await repair(input, catalog);
    expect(plain.confidence).toBe(withEvidence.confidence);
    const evidence = withEvidence.evidence!;
    // A calibration fitted on an edit kind too (`--evidence kinds`) gets it without `confidenceEvidence`.
    const kind = Object.keys(evidence).find((name) => name.startsWith('kind.'))!;
    const calibration = CalibrationSchema.parse({
      ...shipped,
      evidence: [...shipped!.evidence, kind],
      mean: [...shipped!.mean, 0],
      scale: [...shipped!.scale, 1],
      coefficients: [...shipped!.coefficients, -3],
    });
    const readsKinds = await repair(input, catalog, { cost: { ...base, calibration } });
    expect(readsKinds.confidence).toBe(confidenceOf(calibration, evidence));
    expect(readsKinds.confidence).not.toBe(plain.confidence);
  });

  it('guessedApi: a put-back call that more than one API could have been (two output heart_rate, one rhythm)', async () => {
    const requests = loadCatalog('test/cases/catalogs/unrelated-requests-spec.json');
    const evidenceOf = async (field: string) =>
      (
        await repair(
          parseSequenceText(
            `var1 = translate_text(text="hello", target_language="de")\nvar_result(t="$var1.translated_text$", x="$var2.${field}$")`,
          ),
          requests,
          { cost: base, confidenceEvidence: true },
        )
      ).evidence!;
    expect((await evidenceOf('heart_rate')).guessedApi).toBe(1);
    expect((await evidenceOf('rhythm')).guessedApi).toBe(0);
  });

  it('unreadLinks: the values taken from an output no other call reads, under another name', async () => {
    const glaive = loadCatalog('data/nestful/non-executable-glaive-spec.json');
    const unread = await repair(inputOf('unread-output-feeds-lost-argument'), glaive, {
      cost: base,
      confidenceEvidence: true,
    });
    expect(unread.edits.map((e) => e.kind)).toEqual(['unreadOutput']);
    expect(unread.evidence!.unreadLinks).toBe(1);
    const named = await repair(inputOf('made-up-api'), catalog, { cost: base, confidenceEvidence: true });
    expect(named.evidence!.unreadLinks).toBe(0);
  });

  it('guessesBesideUnread: the asks and copied values made after an input call whose output no other call reads', async () => {
    const glaive = loadCatalog('data/nestful/non-executable-glaive-spec.json');
    const evidenceOf = async (text: string, from = glaive) => {
      const fixed = await repair(parseSequenceText(text), from, { cost: base, confidenceEvidence: true });
      return { kinds: fixed.edits.map((e) => e.kind), count: fixed.evidence!.guessesBesideUnread };
    };
    // The news only the answer shows comes before the conversion that lacks its amount: the amount may be
    // read from it. Written after it, the news cannot be.
    const after = 'var1 = get_news(category="business")\nvar2 = convert_currency(from="USD", to="EUR")';
    const before = 'var1 = convert_currency(from="USD", to="EUR")\nvar2 = get_news(category="business")';
    expect(await evidenceOf(`${after}\nvar_result(news="$var1$", converted="$var2$")`)).toEqual({
      kinds: ['slotFill'],
      count: 1,
    });
    expect(await evidenceOf(`${before}\nvar_result(converted="$var1$", news="$var2$")`)).toEqual({
      kinds: ['slotFill'],
      count: 0,
    });
    // A copied value counts as well: the realtime lookup copies the forecast's q where the plan may have read
    // back $var1.location.name$; once another call reads the forecast, it is no unread output.
    const forecast = 'var1 = WeatherAPI.com_Forecast_Weather_API(q="Paris", days=3)';
    const realtime = 'var2 = WeatherAPI.com_Realtime_Weather_Api()';
    expect(await evidenceOf(`${forecast}\n${realtime}\nvar_result(f="$var1$", r="$var2$")`, catalog)).toEqual(
      {
        kinds: ['reuseLiteral'],
        count: 1,
      },
    );
    const zone = 'var3 = WeatherAPI.com_Time_Zone_API(q="$var1.location.name$")';
    expect(
      await evidenceOf(`${forecast}\n${realtime}\n${zone}\nvar_result(r="$var2$", z="$var3$")`, catalog),
    ).toEqual({ kinds: ['reuseLiteral'], count: 0 });
  });

  it('a repeated call’s deletion is no doubt: the cost and edit evidence leave it out', async () => {
    const executed = parseSequenceText('var1 = SkyScrapperSearchAirport(query="New York")');
    const plan = parseSequenceText(
      'var5 = SkyScrapperSearchAirport(query="New York")\n' +
        'var6 = SkyScrapperFlightSearch(originSkyId="$var5.skyId$", destinationSkyId="LOND", ' +
        'originEntityId="$var5.entityId$", destinationEntityId="27544008", date="2024-08-15")',
    );
    const memory = { var1: { skyId: 'NYCA', entityId: '27537542' } };
    const fixed = await repair(plan, catalog, {
      cost: base,
      executed,
      memory,
      maxTries: 1,
      confidenceEvidence: true,
    });
    const deletion = fixed.edits.find((e) => e.kind === 'deleteStep');
    expect(deletion?.step).toBe(0);
    const rest = fixed.edits.filter((e) => e !== deletion);
    expect(rest.length).toBeGreaterThan(0);
    const evidence = fixed.evidence!;
    expect(evidence.edits).toBe(rest.filter((e) => e.kind !== 'slotFill' && e.kind !== 'confirm').length);
    expect(evidence.logMaxEdit).toBeCloseTo(Math.log1p(Math.max(...rest.map((e) => e.cost))), 9);
    expect(evidence.logMaxEdit).toBeLessThan(Math.log1p(deletion!.cost));
  });

  it('logSteps: ln of the input’s steps, its answer step included', async () => {
    const requests = loadCatalog('test/cases/catalogs/unrelated-requests-spec.json');
    const evidenceOf = async (text: string) =>
      (await repair(parseSequenceText(text), requests, { cost: base, confidenceEvidence: true })).evidence!;
    const short = 'var1 = translate_text(text="hello", target_language="de")\nvar_result(x="$var2.rhythm$")';
    const long = `var3 = translate_text(text="bye", target_language="fr")\n${short}`;
    expect((await evidenceOf(short)).logSteps).toBeCloseTo(Math.log(2), 9);
    expect((await evidenceOf(long)).logSteps).toBeCloseTo(Math.log(3), 9);
  });

  it('reads how the input writes its data flow: references per step, named ones, output fields per API', async () => {
    const evidence = (
      await repair(parseSequenceText(readFileSync('samples/wrong-label.txt', 'utf8')), catalog, {
        cost: base,
        confidenceEvidence: true,
      })
    ).evidence!;
    // Four references name what they feed (skyId -> originSkyId, ...); the answer's `$var3$` names no field.
    expect(evidence.refsPerStep).toBeCloseTo(5 / 4, 9);
    expect(evidence.namedRefs).toBeCloseTo(4 / 5, 9);
    const outputs = (name: string) => catalog.apis.find((api) => api.name === name)!.outputs!.length;
    const mean = (2 * outputs('SkyScrapperSearchAirport') + outputs('SkyScrapperFlightSearch')) / 3;
    expect(evidence.logOutputs).toBeCloseTo(Math.log1p(mean), 9);
    // A plan without references: nothing to read, and the share is 0, not NaN.
    const requests = loadCatalog('test/cases/catalogs/unrelated-requests-spec.json');
    const flat = (
      await repair(parseSequenceText('var1 = translate_text(text="hello")\nvar_result(x="done")'), requests, {
        cost: base,
        confidenceEvidence: true,
      })
    ).evidence!;
    expect([flat.refsPerStep, flat.namedRefs]).toEqual([0, 0]);
  });

  it('splits the gap by feature group: the parts add up to the gap, and say where the alternative pays', async () => {
    const unlog = (x: number) => Math.sign(x) * Math.expm1(Math.abs(x));
    const gaps: Record<string, Record<string, number>> = {};
    for (const name of ['missing-step', 'made-up-parameter', 'wrong-label', 'made-up-api']) {
      const evidence = (await repair(inputOf(name), catalog, { cost: base, confidenceEvidence: true }))
        .evidence!;
      expect(evidence.noAlternative).toBe(0);
      const parts = [evidence.gapEdit, evidence.gapEvidence, evidence.gapCloseness].map(unlog);
      expect(parts.reduce((a, b) => a + b, 0)).toBeCloseTo(Math.expm1(evidence.logGap), 6);
      gaps[name] = evidence;
    }
    // The runner-up of a made-up parameter makes one edit more; that of a lost step differs in closeness alone.
    expect(unlog(gaps['made-up-parameter'].gapEdit)).toBeCloseTo(1, 6);
    expect(gaps['missing-step'].gapEdit).toBe(0);
    expect(gaps['missing-step'].gapCloseness).toBeGreaterThan(0);
  });

  it('is a probability under a calibrated cost model, 1 for a valid input, and the same on every run', async () => {
    const names = [
      'missing-step',
      'made-up-parameter',
      'wrong-label',
      'made-up-api',
      'missing-label',
      'made-up-variable',
    ];
    const samples: Sample[] = [];
    for (const [i, name] of names.entries()) {
      const r = await repair(inputOf(name), catalog, { cost: base, confidenceEvidence: true });
      samples.push({ evidence: r.evidence!, right: i % 2 === 0 });
    }
    const calibration = fitCalibration(samples, { weights: weightsDigest(base.weights) });
    const cost = parseCostModel({ ...base, calibration });
    const a = await repair(inputOf('missing-step'), catalog, { cost });
    const b = await repair(inputOf('missing-step'), catalog, { cost, solver: 'lp-solver' });
    expect(a.confidence).toBeGreaterThan(0);
    expect(a.confidence).toBeLessThan(1);
    expect(b.confidence).toBe(a.confidence);
    const valid = await repair(
      a.sequence.filter((s) => s.name !== 'ask'),
      catalog,
      { cost },
    );
    if (valid.status === 'valid') expect(valid.confidence).toBe(1);
    // A calibration fitted under other weights says nothing about these: no confidence, no second solve.
    const other = withWeights(cost, { slotFill: cost.weights.slotFill + 1 });
    expect(other.calibration).toBeDefined();
    const c = await repair(inputOf('missing-step'), catalog, { cost: other });
    expect(c.status).toBe('repaired');
    expect(c.confidence).toBeUndefined();
  });

  it('a calibration reading evidence this version does not compute is refused, naming it (not read as 0)', () => {
    const { calibration: shipped, ...base } = loadCostModel('default');
    const stale = { ...shipped!, evidence: shipped!.evidence.map((n, i) => (i === 0 ? 'logStandIns' : n)) };
    expect(() => parseCostModel({ ...base, calibration: stale })).toThrow(
      /^costModel\.calibration\.evidence\[0\]: `logStandIns` is not evidence this version computes; refit/,
    );
    const alternatives = {
      ...shipped!.alternatives!,
      evidence: ['kind.insertCall', ...shipped!.alternatives!.evidence.slice(1)],
    };
    expect(() => parseCostModel({ ...base, calibration: { ...shipped!, alternatives } })).toThrow(
      /^costModel\.calibration\.alternatives\.evidence\[0\]: `kind\.insertCall` is not evidence/,
    );
    // A count of an edit kind, or a feature total, that no edit or feature of this version has.
    for (const name of ['kind.closeMatch', 'feature.noSuchFeature']) {
      const unknown = { ...shipped!, evidence: [...shipped!.evidence.slice(0, -1), name] };
      expect(() => parseCostModel({ ...base, calibration: unknown })).toThrow(`\`${name}\` is not evidence`);
    }
    // Edit counts, formOnly and feature totals are evidence of the repair (`--evidence kinds|all`).
    for (const name of ['kind.insertCall', 'formOnly', 'feature.linkAny']) {
      const detailed = { ...shipped!, evidence: [...shipped!.evidence.slice(0, -1), name] };
      expect(parseCostModel({ ...base, calibration: detailed }).calibration?.evidence).toContain(name);
    }
  });
});

describe('the confidence of the alternatives (fixes)', () => {
  it('fix 1 has the repair’s; the others a probability, fix 1’s when only labels differ; the same on every backend', async () => {
    const shipped = loadCostModel('default');
    expect(shipped.calibration?.alternatives).toBeDefined();
    const input = inputOf('missing-step');
    const a = await repair(input, catalog, { fixes: 4, confidenceEvidence: true });
    const b = await repair(input, catalog, { fixes: 4, solver: 'lp-solver' });
    const fixes = a.fixes!;
    expect(fixes.length).toBeGreaterThan(1);
    expect(fixes[0].confidence).toBe(a.confidence);
    for (const fix of fixes.slice(1)) {
      expect(fix.confidence).toBeGreaterThanOrEqual(0);
      expect(fix.confidence).toBeLessThanOrEqual(1);
      expect(fix.evidence?.rank).toBeGreaterThanOrEqual(2);
      if (fix.evidence?.sameFlow === 1) expect(fix.confidence).toBe(a.confidence);
      else expect(fix.confidence).toBeLessThan(a.confidence!);
    }
    expect(b.fixes!.map((f) => f.confidence)).toEqual(fixes.map((f) => f.confidence));
    // Shown in the JSON result and in the text's fix lines.
    const json = resultJson(a) as { fixes: { confidence?: number; evidence?: unknown }[] };
    expect(json.fixes.map((f) => f.confidence)).toEqual(fixes.map((f) => f.confidence));
    expect(json.fixes[1].evidence).toBeUndefined();
    expect(resultText(a)).toContain(`fix 2 (cost ${fixes[1].cost}, confidence ${fixes[1].confidence}):`);
  });

  it('the second solve differs in data flow, not in labels alone: the repair’s own flow is cut', async () => {
    const { calibration: _c, ...base } = loadCostModel('default');
    void _c;
    for (const name of ['missing-step', 'wrong-label', 'missing-label', 'made-up-variable']) {
      const input = inputOf(name);
      const { plan, model } = compileFor(input, catalog, { cost: base });
      const solver = getSolver('highs');
      const first = await solver.solve(model, {});
      const cut = excludeFlow(model, plan, first.values!);
      const row = cut.rows[cut.rows.length - 1];
      const lhs = (values: readonly number[]) =>
        row.vars.reduce((s, v, i) => s + row.coefs[i] * values[v], 0);
      expect(lhs(first.values!)).toBeLessThan(row.lower);
      const second = await solver.solve(cut, {});
      if (second.status !== 'optimal') continue;
      const [evidence] = alternativesEvidence(plan, [
        { values: first.values!, edits: [] },
        { values: second.values!, edits: [] },
      ]);
      // What the cut leaves is another flow: some choice means something else.
      expect(evidence.sameFlow).toBe(0);
      expect(evidence.flowChanges + evidence.askChanges).toBeGreaterThan(0);
    }
  });
});

/** The cut that counts a difference at every choice point (`same` summed): the reference for `excludeFlow`. */
function everyPointCut(model: MilpModel, plan: Plan, values: readonly number[]): MilpModel {
  const coefs = new Map<number, number>();
  let upper = -1;
  for (const point of choicePoints(plan)) {
    const chosen = point.find((o) => values[o.v] > 0.5);
    if (chosen) upper++;
    for (const o of point)
      if (!chosen) coefs.set(o.v, (coefs.get(o.v) ?? 0) - 1);
      else if (o.key === chosen.key) coefs.set(o.v, (coefs.get(o.v) ?? 0) + 1);
  }
  const vars = [...coefs.keys()];
  return {
    ...model,
    rows: [...model.rows, { vars, coefs: vars.map((v) => coefs.get(v)!), lower: -Infinity, upper }],
  };
}

describe('the cut of a repair’s flow', () => {
  const { calibration: _c, ...base } = loadCostModel('default');
  void _c;
  /** Every repair case without options, compiled against its own catalog. */
  const compiledCases = readdirSync('test/cases')
    .filter((f) => f.endsWith('.json'))
    .map((f) => JSON.parse(readFileSync(`test/cases/${f}`, 'utf8')) as CaseFile)
    .filter((c) => Object.keys(c.options).length === 0)
    .map((c) => compileFor(parseSequenceText(c.input.join('\n')), loadCatalog(c.catalog), { cost: base }));

  it('cuts the integer points a count over every choice point cuts: the same best different repair', async () => {
    let compared = 0;
    for (const { plan, model } of compiledCases) {
      for (const solver of ['highs', 'lp-solver'] as const) {
        if (solver === 'lp-solver' && model.numVars > 150) continue;
        const backend = getSolver(solver);
        const first = await backend.solve(model, {});
        if (first.status !== 'optimal') continue;
        const mine = await backend.solve(excludeFlow(model, plan, first.values!), {});
        const reference = await backend.solve(everyPointCut(model, plan, first.values!), {});
        expect(mine.status).toBe(reference.status);
        if (mine.status !== 'optimal') continue;
        expect(mine.objective).toBeCloseTo(reference.objective!, 9);
        expect(mine.values!.map(Math.round)).toEqual(reference.values!.map(Math.round));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('counts a call inserted with its parameters as one difference', async () => {
    let checked = 0;
    for (const { plan, model } of compiledCases) {
      const first = await getSolver('highs').solve(model, {});
      if (first.status !== 'optimal') continue;
      const x = first.values!.map(Math.round);
      // A call the repair does not insert, with parameters: the point where it comes in, each of its first
      // API's parameters taking its first source, and nothing else moves.
      const call = plan.calls.find(
        (c) =>
          c.kind === 'inserted' && c.apis.every((a) => x[a.v] === 0) && c.params.some((p) => p.choice === 0),
      );
      if (!call) continue;
      const y = [...x];
      y[call.apis[0].v] = 1;
      for (const p of call.params) if (p.choice === 0) y[p.sources[0].v] = 1;
      const lhs = (row: MilpModel['rows'][number], point: readonly number[]) =>
        row.vars.reduce((sum, v, i) => sum + row.coefs[i] * point[v], 0);
      const cut = excludeFlow(model, plan, x).rows.at(-1)!;
      expect(lhs(cut, y) - lhs(cut, x)).toBeCloseTo(1, 9);
      // Counted at every point, the same insertion is one difference per point it turns on.
      const every = everyPointCut(model, plan, x).rows.at(-1)!;
      expect(lhs(every, x) - lhs(every, y)).toBeGreaterThan(1);
      checked++;
    }
    expect(checked).toBeGreaterThan(20);
  });
});
