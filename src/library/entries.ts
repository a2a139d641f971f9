/**
 * The library's entry points over the pure core: `src/index.ts` exports these in place of the core
 * functions. Each is the core function behind the argument checks of src/api/arguments.ts, so a bad
 * argument throws an `InputError` naming it (`catalog`, `options.mode`, `sequence[2].name`). The front ends
 * check a request once, through `requestSettings`, and call the core directly, so a batch record pays
 * nothing here.
 */
import { parseCostModel, withWeights as withWeightsCore } from '../read/cost-models.ts';
import { validate as validateCore } from '../validate/validate.ts';
import { repair as repairCore } from '../repair/repair.ts';
import { compress as compressCore, compressOptions as compressOptionsCore } from '../repair/compress.ts';
import { checkStep as checkStepCore, memoryFromCalls as memoryFromCallsCore } from '../repair/step.ts';
import { scoreRepair as scoreRepairCore } from '../score/index.ts';
import { heal as healCore } from '../heal/index.ts';
import { checkWeights } from '../api/call.ts';
import {
  anything,
  catalog,
  checked,
  checkedAsync,
  healOptions,
  nullable,
  optional,
  record,
  repairOptions,
  sequence,
  shaped,
  step,
  type Check,
} from '../api/arguments.ts';

const sequenceArguments = { sequence, catalog, options: repairOptions(1) };

export const validate = checked(validateCore, sequenceArguments);
export const repair = checkedAsync(repairCore, sequenceArguments);
export const compress = checkedAsync(compressCore, sequenceArguments);
export const compressOptions = checked(compressOptionsCore, sequenceArguments);

/** `checkStep`'s options: repair options, and the calls already executed. */
const stepOptions: Check = (value, name, args) =>
  shaped({ executed: optional(sequence) })(repairOptions(1)(value, name, args), name, args);

export const checkStep = checkedAsync(checkStepCore, { call: step, catalog, options: stepOptions });
export const memoryFromCalls = checked(memoryFromCallsCore, { executed: sequence, catalog });

export const withWeights = checked(withWeightsCore, {
  model: (value, name) => parseCostModel(value, name),
  overrides: (value, name, args) => checkWeights(record()(value, name, args) as Record<string, number>, name),
});

export const heal = checked(healCore, { input: anything, catalog, options: healOptions });

export const scoreRepair = checked(scoreRepairCore, {
  input: shaped({ input: sequence, gold: sequence, repaired: nullable(sequence) }),
});
