import type { z } from 'zod';
import { branches } from '../resources/branches';
import { deriveSchemas } from '../resources/derive';

/** Derived from the declaration (shared/resources/branches.ts). */
const derived = deriveSchemas(branches);
export const ZBranchCreate = derived.create;
export const ZBranchUpdate = derived.update;
export type BranchCreate = z.infer<typeof ZBranchCreate>;
