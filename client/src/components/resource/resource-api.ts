import { api, type HttpArgs } from '../../app/api';

/** The generic write calls of every resource (create, update, delete and their kin), through RTK Query. */
export const resourceApi = api.injectEndpoints({
  endpoints: (build) => ({
    resourceWrite: build.mutation<unknown, HttpArgs>({ query: (args) => args }),
    resourceRead: build.query<unknown, HttpArgs>({ query: (args) => args, keepUnusedDataFor: 0 }),
  }),
});

export const { useResourceWriteMutation, useResourceReadQuery, useLazyResourceReadQuery } = resourceApi;
