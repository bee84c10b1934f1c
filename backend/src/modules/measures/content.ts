/**
 * The shipped measures' content and their pure reading (no Nest module): what another module may use
 * to evaluate them with the engine as the Panel does (the CDS Hooks patient-view's gap cards), without
 * importing the measures module, which itself imports CdsHooksModule; and what makes a published local
 * version of one (the measure-versions module).
 */
export { SHIPPED_MEASURES } from './shipped-measures';
export { valueSetsOf as measureValueSets, type ShippedMeasure } from './measure-content';
export { patientMeasure, reasonOf, standing } from './panel';
export { draftRulesOf, localMeasure, modelOfRules, versionLabel, type StoredLocalVersion } from './local-version';
