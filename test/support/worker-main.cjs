// Runs `npm run worker` from the TypeScript sources as a real process (the API suites run before any build).
require('./ts-register.cjs');
require('../../backend/src/worker.ts').main();
