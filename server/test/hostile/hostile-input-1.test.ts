import { hostileSuite } from './hostile-suite';

// share 1 of the write routes (hostile-suite.ts): the two files run side by side, each with its own app
hostileSuite({ index: 0, of: 2 });
