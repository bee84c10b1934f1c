import { Assessment } from './assessment.entity';
import { AssessmentLog } from './assessment-log.entity';
import { KnowledgeGeneration } from './knowledge-generation.entity';
import { ChatSession } from './chat-session.entity';

export const ASSESSMENT_ENTITIES = [Assessment, AssessmentLog, KnowledgeGeneration, ChatSession];
