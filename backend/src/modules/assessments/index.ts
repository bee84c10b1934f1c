// What other modules may use from the assessments module: the published rules an evaluation runs
// on, how an answer is checked and recorded, and how an outcome becomes a result. CDS Hooks and the
// FHIR questionnaire evaluate exactly as the clinical form does through these.
export { formatNumber, isNumericParameter, numericLimits } from './answer-check';
export { questionJson, recordAnswer } from './answer-record';
export type { AnswerDto } from './assessments.dto';
export { askedTwice, AssessmentsService } from './assessments.service';
export { recordedAnswers } from './assessments.repository';
export { enteredOf, toActions, toResult } from './outcome';
export { PublishedRules, type Knowledge } from './published-rules';
export { AssessmentsModule } from './assessments.module';
export {
  historiesOf,
  RecordContexts,
  type ParameterHistorySnapshot,
  type RecordContext,
  type RecordHistorySnapshot,
  type SnapshotResult,
} from './record-context';
