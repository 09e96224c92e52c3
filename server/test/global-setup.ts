import { buildTemplate } from './template-db';

/** Once per run, before any server test file: the migrated template every test database is copied from. */
export default buildTemplate;
