import { dropTemplate } from './template-db';

/** Once per run, after the server test files: the template goes. */
export default dropTemplate;
