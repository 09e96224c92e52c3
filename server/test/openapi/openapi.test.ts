/**
 * GET /api/openapi.json (issue 30, item 5): the API description, generated from the routes, their zod schemas and
 * the declarations. It covers exactly the routes an API token can call — found here by calling every registered
 * route with a token holding every ability (an account route needing a browser session, or an admin's alone, is
 * refused; every other route is the token's) — states each one's permission key and request, and the one error
 * shape with every code and message key. Every $ref resolves. (The contract suite validates its answers against it:
 * server/test/resources/contract.test.ts.)
 */
import Ajv2020 from 'ajv/dist/2020';
import request from 'supertest';
import { ERROR_CODES } from '../../../shared/errors';
import { CATALOG } from '../../../shared/messages';
import { PERMISSIONS } from '../../../shared/permissions';
import { toDbDateTime } from '../../src/lib/clock';
import { randomToken, sha256 } from '../../src/lib/crypto';
import { Client, createTestApp, createUser, STAFF_HOST, type TestApp } from '../harness';

let t: TestApp;
let token: string;
let document: any;

beforeAll(async () => {
  t = await createTestApp();
  const owner = await createUser(t.db, { permissions: [...PERMISSIONS] });
  token = `sa_${randomToken(32)}`;
  const now = toDbDateTime();
  await t.db('api_tokens').insert({
    user_id: owner.id,
    name: 'everything',
    token_hash: sha256(token),
    abilities: JSON.stringify(PERMISSIONS),
    created_at: now,
    updated_at: now,
  });
});
afterAll(() => t.close());

const bearer = (method: 'get' | 'post' | 'put' | 'patch' | 'delete', url: string) =>
  request(t.app)[method](url).set('Host', STAFF_HOST).set('Authorization', `Bearer ${token}`);

describe('GET /api/openapi.json', () => {
  it('answers an API token and a signed-in staff user, not someone signed out', async () => {
    const res = await bearer('get', '/api/openapi.json').expect(200);
    document = res.body;
    expect(document.openapi).toBe('3.1.0');
    expect(document.components.securitySchemes.bearerToken).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    await request(t.app).get('/api/openapi.json').set('Host', STAFF_HOST).expect(401);
    const user = await createUser(t.db);
    const staff = new Client(t.app);
    await staff.login(user.email, user.password);
    expect((await staff.get('/api/openapi.json').expect(200)).body).toEqual(document);
  });

  it('covers exactly the routes an API token can call', async () => {
    const inDocument = new Set<string>();
    for (const [path, methods] of Object.entries(document.paths as Record<string, object>))
      for (const method of Object.keys(methods))
        inDocument.add(`${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`);
    const callable: string[] = [];
    const refused: string[] = [];
    for (const route of t.api.routes) {
      const key = `${route.method} ${route.path}`;
      if (route.access !== 'staff') continue;
      // an id no record has: a route the token may call stops at 404 or validation, never changes a record
      const url = `/api${route.path.replace(/:\w+/g, '999999')}`;
      const res = await bearer(route.method, url).send({});
      const forbidden =
        res.status === 403 && (res.body.message_key === 'browserSessionOnly' || route.permission === 'admin');
      expect({ key, status: res.status }).not.toEqual({ key, status: 401 });
      (forbidden ? refused : callable).push(key);
    }
    console.log(
      `API description: ${callable.length} routes an API token can call, every one in /api/openapi.json ` +
        `(${inDocument.size} operations); ${refused.length} refused to a token (account routes needing a browser ` +
        'session, admins’ own) and left out',
    );
    expect([...inDocument].sort()).toEqual(callable.sort());
  });

  it('states each operation’s permission key, parameters and body from the zod schemas', () => {
    const list = document.paths['/students'].get;
    expect(list['x-permission']).toBe('students.view');
    const perPage = list.parameters.find((p: { name: string }) => p.name === 'per_page');
    expect(perPage).toMatchObject({
      in: 'query',
      required: false,
      schema: { type: 'integer', maximum: 100 },
    });
    expect(list.responses['200'].content).toHaveProperty('text/csv');
    const create = document.paths['/students'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.required).toEqual(expect.arrayContaining(['surname_en', 'given_name_en']));
    expect(body.properties.passport_no.anyOf[0]).toMatchObject({ type: 'string', maxLength: 40 });
    expect(create.responses['201'].content['application/json'].schema.$ref).toBe(
      '#/components/schemas/Student',
    );
    const record = document.paths['/students/{id}'].get;
    expect(record.parameters).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'id', in: 'path', required: true })]),
    );
    expect(document.components.schemas.Student.properties.birth_date).toEqual({
      anyOf: [{ type: 'string', format: 'date' }, { type: 'null' }],
    });
    expect(document.paths['/schools/{parentId}/subjects/lookup'].get['x-permission']).toEqual(
      expect.arrayContaining(['schools.view']),
    );
    expect(document.paths['/files/{id}'].get.responses['200'].content).toHaveProperty(['*/*']);
  });

  it('gives the one error shape, with every error code and message key, on every operation', () => {
    const error = document.components.schemas.Error;
    expect(error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_CODES).sort());
    expect(error.properties.message_key.enum.sort()).toEqual(Object.keys(CATALOG).sort());
    for (const [path, methods] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(methods)) {
        expect([path, method, operation.responses.default]).toEqual([
          path,
          method,
          { $ref: '#/components/responses/Error' },
        ]);
      }
    }
    // a real error answer is that shape
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(document, 'openapi.json');
    const validate = ajv.compile({ $ref: 'openapi.json#/components/schemas/Error' });
    expect(validate({ message: 'Not Found', code: 'not_found', message_key: 'notFound' })).toBe(true);
    expect(validate({ message: 'x', code: 'no_such_code' })).toBe(false);
  });

  it('resolves every $ref, and compiles every schema', () => {
    const ajv = new Ajv2020({ strict: false });
    ajv.addFormat('date', true).addFormat('date-time', true).addFormat('binary', true);
    ajv.addSchema(document, 'openapi.json');
    let compiled = 0;
    const visit = (node: unknown, pointer: string): void => {
      if (!node || typeof node !== 'object') return;
      if (pointer.endsWith('/schema')) {
        ajv.compile({ $ref: `openapi.json#${pointer}` });
        compiled++;
        return;
      }
      for (const [key, value] of Object.entries(node))
        visit(value, `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    };
    visit(document.paths, '/paths');
    expect(compiled).toBeGreaterThan(300);
  });
});
