/**
 * Prints the cost-model tables of docs/cost-model.md from the schema and the shipped presets: one row per
 * feature (its meaning, the weight of each preset, the test that shows it), then the evidence scores, the
 * mapping scoring and the bounds on candidate generation. `test/cost-model.test.ts` keeps the page equal.
 */
import { BoundsSchema, CostModelSchema, EvidenceSchema, MappingScoringSchema } from '../src/model/cost.ts';
import { FEATURES, FEATURE_NAMES } from '../src/model/features.ts';
import { loadCostModel, presetNames } from '../src/read/cost-models.ts';
import type { z } from 'zod';

const names = presetNames();
const models = names.map((n) => loadCostModel(n));
const header = (first: string, extra: string[] = []) => {
  console.log(`| ${first} | meaning | ${[...names, ...extra].join(' | ')} |`);
  console.log(`| --- | --- | ${[...names, ...extra].map(() => '---').join(' | ')} |`);
};
const described = (s: z.ZodType) => (s as unknown as { description?: string }).description ?? '';

header('feature', ['shown by']);
for (const k of FEATURE_NAMES) {
  const f = FEATURES[k];
  console.log(
    `| \`${k}\` | ${f.group}: ${f.meaning} | ${models.map((m) => m.weights[k]).join(' | ')} | \`${f.shownBy}\` |`,
  );
}
console.log('');
header('evidence score');
for (const [k, s] of Object.entries(EvidenceSchema.shape))
  console.log(
    `| \`${k}\` | ${described(s)} | ${models.map((m) => (m.evidence as Record<string, number>)[k]).join(' | ')} |`,
  );
console.log('');
header('mapping scoring');
for (const [k, s] of Object.entries(MappingScoringSchema.shape))
  console.log(
    `| \`${k}\` | ${described(s)} | ${models.map((m) => (m.mappings as Record<string, number>)[k]).join(' | ')} |`,
  );
console.log('');
header('bound');
for (const [k, s] of Object.entries(BoundsSchema.shape))
  console.log(
    `| \`${k}\` | ${described(s)} | ${models.map((m) => (m.bounds as Record<string, number>)[k]).join(' | ')} |`,
  );
for (const k of ['minSimilarity', 'apiCandidates', 'insertDepth', 'insertLimit', 'keepCalls'] as const)
  console.log(
    `| \`${k}\` | ${described(CostModelSchema.shape[k])} | ${models.map((m) => m[k]).join(' | ')} |`,
  );
