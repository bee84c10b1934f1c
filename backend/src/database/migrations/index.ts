import { Foundation1795420800000 } from './1795420800000-Foundation';
import { Parameters1795507200000 } from './1795507200000-Parameters';
import { Rules1795507260000 } from './1795507260000-Rules';
import { Invitations1795650000000 } from './1795650000000-Invitations';
import { Assessments1795650060000 } from './1795650060000-Assessments';
import { AnswersAndFindings1795800000000 } from './1795800000000-AnswersAndFindings';
import { PublishGate1795810000000 } from './1795810000000-PublishGate';
import { CdsClients1795840000000 } from './1795840000000-CdsClients';
import { CdsPrefillAndFhirServers1795900000000 } from './1795900000000-CdsPrefillAndFhirServers';
import { CdsFeedback1795900000001 } from './1795900000001-CdsFeedback';
import { ImpactPreviews1795920000000 } from './1795920000000-ImpactPreviews';
import { ImpactPreviewChanges1795960000000 } from './1795960000000-ImpactPreviewChanges';
import { CdsHookGeneration1796000000000 } from './1796000000000-CdsHookGeneration';
import { AssessmentRuledOut1796050000000 } from './1796050000000-AssessmentRuledOut';
import { ContentPacks1796100000000 } from './1796100000000-ContentPacks';
import { CdsHookGenerationWhatCallsRead1796150000000 } from './1796150000000-CdsHookGenerationWhatCallsRead';
import { FhirResources1796300000000 } from './1796300000000-FhirResources';
import { TemplateEquivalents1796420000000 } from './1796420000000-TemplateEquivalents';
import { RecordImports1796500000000 } from './1796500000000-RecordImports';
import { RecordContext1796530000000 } from './1796530000000-RecordContext';
import { MeasureRuns1796600000000 } from './1796600000000-MeasureRuns';
import { AnswerOneRoundTrip1796610000000 } from './1796610000000-AnswerOneRoundTrip';
import { HbA1cGuidelinePairs1796650000000 } from './1796650000000-HbA1cGuidelinePairs';
import { MeasureVersions1796800000000 } from './1796800000000-MeasureVersions';
import { AnswerLogWithoutForeignKey1796850000000 } from './1796850000000-AnswerLogWithoutForeignKey';
import { RecordContextOncePerCall1796910000000 } from './1796910000000-RecordContextOncePerCall';
import { AnswersOncePerCall1796940000000 } from './1796940000000-AnswersOncePerCall';
import { AnswerRowStorage1796950000000 } from './1796950000000-AnswerRowStorage';

/** Ordered list of migrations; the CLI and the app run exactly these. */
export const MIGRATIONS = [
  Foundation1795420800000,
  Parameters1795507200000,
  Rules1795507260000,
  Invitations1795650000000,
  Assessments1795650060000,
  AnswersAndFindings1795800000000,
  PublishGate1795810000000,
  CdsClients1795840000000,
  CdsPrefillAndFhirServers1795900000000,
  CdsFeedback1795900000001,
  ImpactPreviews1795920000000,
  ImpactPreviewChanges1795960000000,
  CdsHookGeneration1796000000000,
  AssessmentRuledOut1796050000000,
  ContentPacks1796100000000,
  CdsHookGenerationWhatCallsRead1796150000000,
  FhirResources1796300000000,
  TemplateEquivalents1796420000000,
  RecordImports1796500000000,
  RecordContext1796530000000,
  MeasureRuns1796600000000,
  AnswerOneRoundTrip1796610000000,
  HbA1cGuidelinePairs1796650000000,
  MeasureVersions1796800000000,
  AnswerLogWithoutForeignKey1796850000000,
  RecordContextOncePerCall1796910000000,
  AnswersOncePerCall1796940000000,
  AnswerRowStorage1796950000000,
];
