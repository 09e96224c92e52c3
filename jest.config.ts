import type { Config } from 'jest';

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', tsx: true },
      transform: { react: { runtime: 'automatic' } },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
  },
];

/** ESM-only packages the server imports (directly or not), transformed instead of ignored. */
const ESM_ONLY = ['file-type', 'strtok3', 'token-types', 'uint8array-extras', '@tokenizer', '@borewit'];

const config: Config = {
  // real databases on a 2-core CI machine: creating and migrating a MariaDB database can take seconds.
  // Set here, globally: jest-circus reads the global testTimeout, not a project's.
  testTimeout: 30_000,
  // every core (jest's default leaves one idle: on the 2-core CI machine, one worker): each server test file
  // works in a database of its own, so files run side by side
  maxWorkers: '100%',
  projects: [
    {
      displayName: 'server',
      testEnvironment: 'node',
      roots: ['<rootDir>/server', '<rootDir>/shared', '<rootDir>/migrations'],
      testMatch: ['**/*.test.ts'],
      transform: { '^.+\\.(t|j)sx?$': swc as never },
      // file-type (upload sniffing) and its dependencies are ESM only: swc turns them into CommonJS too
      transformIgnorePatterns: [`/node_modules/(?!(${ESM_ONLY.join('|')})/)`],
      setupFiles: ['<rootDir>/server/test/setup-env.ts'],
      // one migrated template per run, which every test database copies (server/test/template-db.ts)
      globalSetup: '<rootDir>/server/test/global-setup.ts',
      globalTeardown: '<rootDir>/server/test/global-teardown.ts',
    },
    {
      displayName: 'client',
      testEnvironment: '<rootDir>/client/src/test/jsdom-environment.ts',
      roots: ['<rootDir>/client/src'],
      testMatch: ['**/*.test.ts', '**/*.test.tsx'],
      transform: { '^.+\\.(t|j|mj)sx?$': swc as never },
      transformIgnorePatterns: [],
      setupFilesAfterEnv: ['<rootDir>/client/src/test/setup.ts'],
      moduleNameMapper: {
        '\\.(css|less)$': '<rootDir>/client/src/test/style-mock.ts',
        // the two barrels load each export when first used, not all of them in every test file
        '^antd$': '<rootDir>/client/src/test/antd-on-demand.cjs',
        '^@ant-design/icons$': '<rootDir>/client/src/test/icons-on-demand.cjs',
      },
    },
  ],
};

export default config;
