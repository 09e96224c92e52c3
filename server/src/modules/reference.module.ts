import type { ModuleDeps } from './module';

/** Reference data and settings (options, numbering, terms, audit log): routes registered here. */
export function registerReferenceModule(_deps: ModuleDeps): void {}
