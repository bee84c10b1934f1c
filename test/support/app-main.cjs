// Runs `npm start` (backend/src/main.ts) from the TypeScript sources as a real process.
require('./ts-register.cjs');
require('../../backend/src/main.ts');
