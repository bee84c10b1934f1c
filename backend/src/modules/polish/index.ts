// What other modules may use from the polish module.
export { questionText } from './question-text';
export { PolishService } from './polish.service';
export { PolishModule } from './polish.module';
