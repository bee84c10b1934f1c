import { Assessment } from './assessment.entity';
import { AssessmentLog, KnowledgeGeneration } from './assessment-log.entity';
import { ChatSession } from './chat-session.entity';

export const ASSESSMENT_ENTITIES = [Assessment, AssessmentLog, KnowledgeGeneration, ChatSession];
