// What other modules may use from the rules module: the published versions assessments evaluate,
// and the loading steps the impact preview compares a draft with.
export { combinationHash, loadCombination, type Combination } from './publish-gate';
export { draftContent, findRuleSet } from './rule-store';
export { latestVersion, versionIdOf, versionNumberOf } from './rule-versions.repository';
export { vignettesOfSets } from './rule-sets.repository';
export { contentHash } from './snapshot';
export { PublishImpactCheck, type PreviewBasis } from './publish-impact-check';
export { RuleVersionsService, type PublishedRuleSet } from './rule-versions.service';
export { RulesModule } from './rules.module';
export { VersionNumberPipe } from './rule-sets.controller';
