import { createContext, useContext } from 'react';

/** What the controls of a record's form know of it, besides their own value. */
export interface ResourceFormContextValue {
  /** the collection the form writes to (`/api/schools/5/admissions`): a file field uploads under it */
  apiPath: string;
  /** the record's id; null on a new record */
  id: string | number | null;
}

/** Provided by `ResourceForm` around its fields. */
export const ResourceFormContext = createContext<ResourceFormContextValue | null>(null);

export function useResourceFormContext(): ResourceFormContextValue | null {
  return useContext(ResourceFormContext);
}
