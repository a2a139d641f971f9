import { WeightsSchema } from '../src/model/cost.ts';
import { loadCostModel, presetNames } from '../src/read/cost-models.ts';
const names = presetNames();
const models = names.map((n) => loadCostModel(n));
console.log(`| weight | meaning | ${names.join(' | ')} |`);
console.log(`| --- | --- | ${names.map(() => '---').join(' | ')} |`);
for (const [k, s] of Object.entries(WeightsSchema.shape)) {
  console.log(
    `| \`${k}\` | ${(s as any).description} | ${models.map((m) => (m.weights as any)[k]).join(' | ')} |`,
  );
}
for (const k of ['minSimilarity', 'apiCandidates', 'insertDepth', 'insertLimit', 'keepCalls'])
  console.log(`| \`${k}\` | | ${models.map((m) => (m as any)[k]).join(' | ')} |`);
