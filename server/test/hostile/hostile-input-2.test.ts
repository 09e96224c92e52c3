import { hostileSuite } from './hostile-suite';

// share 2 of the write routes (hostile-suite.ts): the two files run side by side, each with its own app
hostileSuite({ index: 1, of: 2 });
