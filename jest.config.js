// Nest 12 ships ESM only; @swc/jest compiles it (and its ESM helpers) to CommonJS for Jest.
const esmPackages = [
  '@nestjs',
  'file-type',
  'load-esm',
  'strtok3',
  'token-types',
  'uint8array-extras',
  '@tokenizer',
  'peek-readable',
  'oauth2-mock-server',
  'jose',
  // @fastify/static (HTTP_ADAPTER=fastify) nests an ESM-only content-disposition: both path forms must pass.
  '@fastify/static/node_modules/content-disposition',
  'content-disposition',
];
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];
const common = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [`node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  // The workspace packages are used from source in tests, so no build is needed first.
  moduleNameMapper: {
    '^@cds/engine$': '<rootDir>/packages/engine/src/index.ts',
    '^@cds/contracts$': '<rootDir>/packages/contracts/src/index.ts',
  },
};
// Without DATABASE_URL the suites that start the app get their databases from one embedded
// PostgreSQL broker started here, outside the test sandbox.
const database = {
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
};
module.exports = {
  testTimeout: 60000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/backend/src/**/*.spec.ts', '<rootDir>/packages/*/src/**/*.spec.ts', '<rootDir>/scripts/**/*.spec.ts'],
    },
    { ...common, ...database, displayName: 'api', testMatch: ['<rootDir>/test/api/**/*.e2e-spec.ts'] },
    // Clinical vignettes from the ADA Standards of Care, driven through the HTTP API (issue 9).
    { ...common, ...database, displayName: 'clinical', testMatch: ['<rootDir>/test/clinical/**/*.clinical-spec.ts'] },
    {
      ...common,
      ...database,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/browser-setup.ts'],
    },
  ],
};
