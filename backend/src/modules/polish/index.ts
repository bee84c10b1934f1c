// What other modules may use from the polish module.
export { questionText, type QuestionSource } from './question-text';
export { PolishService } from './polish.service';
export { PolishModule } from './polish.module';
// The job queue (two drivers behind one contract), for other modules' background jobs.
export { createJobQueue } from './queue/create-job-queue';
export { isUnrecoverable } from './queue/in-process-job-queue';
export type { JobQueue, QueuedJob } from './queue/job-queue';
export { QueueConsumer } from './queue/queue-consumer';
export { PolishRunner } from './polish.runner';
