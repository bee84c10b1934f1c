// What other modules may use from the polish module.
export { questionText, type QuestionSource } from './question-text';
export { PolishService } from './polish.service';
export { PolishModule } from './polish.module';
