import { Assessment } from './assessment.entity';
import { ChatSession } from './chat-session.entity';

export const ASSESSMENT_ENTITIES = [Assessment, ChatSession];
