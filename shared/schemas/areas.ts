import type { z } from 'zod';
import { areas } from '../resources/areas';
import { deriveSchemas } from '../resources/derive';

/** An area (parent_id null) or one of its districts (parent_id = the area): derived from shared/resources/areas.ts. */
const derived = deriveSchemas(areas);
export const ZAreaCreate = derived.create;
export const ZAreaUpdate = derived.update;
export type AreaCreate = z.infer<typeof ZAreaCreate>;
