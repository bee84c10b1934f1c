// Runs `npm run cli` (backend/src/cli.ts) from the TypeScript sources as a real process.
require('./ts-register.cjs');
require('../../backend/src/cli.ts');
