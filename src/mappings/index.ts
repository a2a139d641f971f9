/** Mapping tables: computed from a catalog, learned from sequences, merged, written to files. */
export {
  computeMappings,
  scorePairs,
  DEFAULT_THRESHOLD,
  DEFAULT_TOP,
  type ComputeOptions,
  type ScoredPair,
} from '../catalog/computed-mappings.ts';
export {
  learnPairs,
  learnMappings,
  learnedScore,
  mergeMappings,
  type Learned,
  type LearnedPair,
  type LearnOptions,
} from './learn.ts';
export {
  buildMappings,
  formatMappings,
  formatMappingsText,
  type BuildOptions,
  type MappingTable,
} from './build.ts';
