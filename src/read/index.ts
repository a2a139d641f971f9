/** Adapters: external shapes (catalogs, sequences, memory, record files) → the domain model. */
export {
  InputError,
  formatPath,
  formatZodError,
  inputErrorFromZod,
  parseAt,
  type FieldPath,
} from '../model/errors.ts';
export { parseCatalog, loadCatalog, type CatalogOptions } from './catalog.ts';
export {
  parseSequence,
  parseSequenceText,
  loadSequence,
  toNestful,
  toStringForm,
  parseStringForm,
  formatStringForm,
  formatStep,
  type NestfulStep,
  type SequenceOptions,
} from './sequence.ts';
export { parseMemory, loadMemory } from './memory.ts';
export { parseRecords, readRecords, type RecordItem } from './records.ts';
export { normaliseType } from './value-type.ts';
