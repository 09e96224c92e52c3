import { makeStore } from '../../app/store';
import { resetCsrfToken } from '../../http/client';
import { fakeResponse, installFetch, type FetchCall } from '../../test/http-fakes';
import { listTags, resourceApi, writeTags } from './resource-api';

const gets = (calls: FetchCall[], path: string) =>
  calls.filter((c) => (c.init.method ?? 'GET') === 'GET' && c.url.split('?')[0] === path).length;

/** Wait until the store has settled every call in flight (RTK Query refetches after an invalidation). */
async function settle(store: ReturnType<typeof makeStore>) {
  for (let i = 0; i < 50; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 0));
    const { queries, mutations } = store.getState().api;
    const busy = [...Object.values(queries), ...Object.values(mutations)].some(
      (q) => q?.status === 'pending',
    );
    if (!busy) return;
  }
}

beforeEach(() => resetCsrfToken());

describe('resource tags', () => {
  it('names a write’s paths from the collection down, without the query', () => {
    expect(writeTags('/api/schools/5/subjects/3?x=1').map((t) => t.id)).toEqual([
      '/api/schools',
      '/api/schools/5',
      '/api/schools/5/subjects',
      '/api/schools/5/subjects/3',
    ]);
    expect(writeTags('/api/companies', ['/api/branches']).map((t) => t.id)).toEqual([
      '/api/companies',
      '/api/branches',
    ]);
    expect(listTags('/api/schools/5/subjects').map((t) => t.id)).toEqual([
      '/api/schools/5/subjects',
      '/api/schools/5',
    ]);
    expect(listTags('/api/companies').map((t) => t.id)).toEqual(['/api/companies']);
  });

  it('a save reads again the lists and the record showing it, and nothing else', async () => {
    const calls = installFetch({
      'GET /api/csrf-token': fakeResponse(200, { token: 't' }),
      'GET /api/things': fakeResponse(200, { items: [], total: 0, page: 1, per_page: 20 }),
      'GET /api/things/3': fakeResponse(200, { id: 3, name: 'Three' }),
      'GET /api/things/3/parts': fakeResponse(200, { items: [], total: 0, page: 1, per_page: 20 }),
      'GET /api/others': fakeResponse(200, { items: [], total: 0, page: 1, per_page: 20 }),
      'PUT /api/things/3': fakeResponse(200, { id: 3, name: 'Renamed' }),
      'POST /api/things/3/parts': fakeResponse(201, { id: 9 }),
      'POST /api/things/3/approve': fakeResponse(200, { id: 3 }),
      'DELETE /api/things/3/parts/9': fakeResponse(204),
      'PUT /api/things/4': fakeResponse(422, { code: 'validation', message: 'x', errors: {} }),
    });
    const store = makeStore('backoffice');
    const subscriptions = [
      store.dispatch(
        resourceApi.endpoints.resourceList.initiate({ path: '/api/things', params: { page: 1 } }),
      ),
      store.dispatch(
        resourceApi.endpoints.resourceRecord.initiate({ path: '/api/things', id: 3, tab: 'basic' }),
      ),
      store.dispatch(resourceApi.endpoints.resourceList.initiate({ path: '/api/things/3/parts' })),
      store.dispatch(resourceApi.endpoints.resourceList.initiate({ path: '/api/others' })),
    ];
    await settle(store);
    const count = () =>
      ['/api/things', '/api/things/3', '/api/things/3/parts', '/api/others'].map((p) => gets(calls, p));
    expect(count()).toEqual([1, 1, 1, 1]);
    expect(calls.find((c) => c.url.startsWith('/api/things/3?'))?.url).toBe('/api/things/3?tab=basic');

    // the record saved: its list, the record and its children's list (the parent saved with them)
    await store.dispatch(
      resourceApi.endpoints.resourceUpdate.initiate({
        path: '/api/things',
        id: 3,
        body: { name: 'Renamed' },
      }),
    );
    await settle(store);
    expect(count()).toEqual([2, 2, 2, 1]);

    // a child added: the children's list and the parent record (and the parent's list)
    await store.dispatch(
      resourceApi.endpoints.resourceCreate.initiate({ path: '/api/things/3/parts', body: { name: 'P' } }),
    );
    await settle(store);
    expect(count()).toEqual([3, 3, 3, 1]);

    // a child deleted, naming another list that shows it
    await store.dispatch(
      resourceApi.endpoints.resourceDelete.initiate({
        path: '/api/things/3/parts',
        id: 9,
        invalidates: ['/api/others'],
      }),
    );
    await settle(store);
    expect(count()).toEqual([4, 4, 4, 2]);

    // an action on the record
    await store.dispatch(
      resourceApi.endpoints.resourceAction.initiate({ path: '/api/things', id: 3, action: 'approve' }),
    );
    await settle(store);
    expect(count()).toEqual([5, 5, 5, 2]);
    expect(calls.find((c) => c.url === '/api/things/3/approve')?.init.method).toBe('POST');

    // a refused write changed nothing: nothing is read again
    await store.dispatch(
      resourceApi.endpoints.resourceUpdate.initiate({ path: '/api/things', id: 4, body: {} }),
    );
    await settle(store);
    expect(count()).toEqual([5, 5, 5, 2]);

    for (const s of subscriptions) s.unsubscribe();
  });
});
