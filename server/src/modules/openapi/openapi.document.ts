import { z } from 'zod';
import { ERROR_CODES } from '../../../../shared/errors';
import { CATALOG } from '../../../../shared/messages';
import { ADMINS_ONLY } from '../../../../shared/permissions';
import { DECLARATIONS } from '../../../../shared/resources';
import { lookupNameField, type FieldDeclaration } from '../../../../shared/resources/declaration';
import type { RegisteredRoute, RouteAnswer } from '../../http/api-router';
import { sessionOnly } from '../profile/own-account';

/**
 * The API description (issue 30, item 5; decision 0015): an OpenAPI 3.1 document generated from what the app
 * registers — every route an API token can call (a staff route that is not an admin's alone and not an account
 * route needing a browser session), its permission key, its parameters and body from the route's own zod schemas
 * (`z.toJSONSchema`, the request as a client sends it), its answer from the resource declarations (a list of rows,
 * a row, a lookup), and the one error shape with every error code and message key. Nothing is written by hand per
 * route: a route added to the ApiRouter is in the document.
 */

type Schema = Record<string, unknown>;

const JSON_TYPE = 'application/json';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Whether an API token (`Authorization: Bearer …`) can call the route at all. */
export function tokenCallable(route: RegisteredRoute): boolean {
  return (
    route.access === 'staff' &&
    route.permission !== ADMINS_ONLY &&
    !(route.before ?? []).includes(sessionOnly)
  );
}

/** A zod schema as JSON Schema of what a client sends (no `$schema`; unrepresentable parts allow anything). */
function jsonSchema(schema: z.ZodType): Schema {
  const out = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Schema;
  delete out.$schema;
  return out;
}

const nullable = (schema: Schema): Schema => ({ anyOf: [schema, { type: 'null' }] });

/** The JSON Schema of one declared field's value in a row the API answers. */
function fieldSchema(field: FieldDeclaration): Schema {
  switch (field.type) {
    case 'integer':
    case 'rate':
    case 'lookup':
    case 'file':
      return nullable({ type: 'integer' });
    case 'money':
      return nullable({ type: 'number', description: 'minor units (×100)' });
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return nullable({ type: 'string', format: 'date' });
    case 'datetime':
      return nullable({ type: 'string', format: 'date-time' });
    case 'text':
      return nullable(field.values ? { type: 'string', enum: [...field.values] } : { type: 'string' });
    default:
      return nullable({ type: 'string' });
  }
}

/** A declared resource's row as the API answers it: its fields typed, the names of related records beside them. */
function rowSchema(resource: string): Schema {
  const decl = DECLARATIONS.find((d) => d.name === resource);
  const properties: Record<string, Schema> = {
    id: { type: 'integer' },
    allowed_actions: {
      type: 'array',
      items: { type: 'string' },
      description: 'the writes this caller may make on the row now (`update`, `delete`, state actions)',
    },
    refusal: {
      ...nullable({ type: 'string' }),
      description: 'why the access rules keep the row from this caller (a message key), or null',
    },
    locked: {
      ...nullable({ type: 'string' }),
      description:
        'on a resource whose records a state keeps as they are (a void invoice): why (a message key), or null',
    },
  };
  for (const [name, field] of Object.entries(decl?.fields ?? {})) {
    properties[name] = fieldSchema(field);
    if (field.type === 'lookup' || field.type === 'file')
      properties[lookupNameField(name)] = nullable({ type: 'string' });
    if (field.type === 'option') properties[`${name}_label`] = nullable({ type: 'string' });
  }
  for (const [name, collection] of Object.entries(decl?.collections ?? {})) {
    if (collection.ids) {
      properties[name] = { type: 'array', items: { type: 'integer' } };
      properties[`${name.replace(/_ids$/, '')}_names`] = { $ref: '#/components/schemas/Lookup' };
    } else {
      const fields: Record<string, Schema> = { id: { type: 'integer' } };
      for (const [field, declared] of Object.entries(collection.fields ?? {}))
        fields[field] = fieldSchema(declared);
      properties[name] = {
        type: 'array',
        items: { type: 'object', required: ['id'], properties: fields, additionalProperties: true },
      };
    }
  }
  return {
    type: 'object',
    required: ['id'],
    properties,
    // the caller's language's names of related records, tab data (`?tab=`), a resource's own additions
    additionalProperties: true,
  };
}

function componentName(resource: string): string {
  return resource
    .split(/[_-]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** `/students/:id/applications` → `/students/{id}/applications` */
const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** The parameters of an `in` part from its zod object schema (each property one parameter). */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query', path: string): Schema[] {
  const names = where === 'path' ? [...path.matchAll(/:(\w+)/g)].map((m) => m[1]) : [];
  const json = schema ? jsonSchema(schema) : { properties: {} };
  const properties = (json.properties ?? {}) as Record<string, Schema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  const all = where === 'path' ? names : Object.keys(properties);
  return all.map((name) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: properties[name] ?? { type: 'string' },
  }));
}

const ERROR_REF = { $ref: '#/components/responses/Error' };

/** The statuses an operation may answer with an error, each with the error body. */
function errorResponses(route: RegisteredRoute): Record<string, unknown> {
  const out: Record<string, unknown> = { '401': ERROR_REF, '403': ERROR_REF };
  if (route.path.includes(':')) out['404'] = ERROR_REF;
  if (route.schemas || route.method !== 'get') out['422'] = ERROR_REF;
  if (route.method === 'delete' || route.method === 'post') out['409'] = ERROR_REF;
  out['429'] = ERROR_REF;
  out.default = ERROR_REF;
  return out;
}

function successResponses(route: RegisteredRoute, answer: RouteAnswer | undefined): Record<string, unknown> {
  const json = (schema: Schema, description: string) => ({
    description,
    content: { [JSON_TYPE]: { schema } },
  });
  if (!answer) {
    const status = route.method === 'post' ? '2XX' : '200';
    return { [status]: json({}, 'JSON (its shape is the route’s own)') };
  }
  switch (answer.kind) {
    case 'empty':
      return { '204': { description: 'done, nothing to answer' } };
    case 'file':
      return {
        '200': {
          description: 'a file download (Content-Disposition names it)',
          content: Object.fromEntries(
            answer.types.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
          ),
        },
      };
    case 'list':
      return {
        '200': {
          description:
            'one page of rows; with `format=xlsx|csv` the whole list as a file, headed in `lang` or the user’s language',
          content: {
            [JSON_TYPE]: {
              schema: pageSchema({ $ref: `#/components/schemas/${componentName(answer.resource)}` }),
            },
            'text/csv': { schema: { type: 'string' } },
            [XLSX]: { schema: { type: 'string', format: 'binary' } },
          },
        },
      };
    case 'lookup':
      return {
        '200': json({ $ref: '#/components/schemas/Lookup' }, 'the choices matching `q`: id and label'),
      };
    case 'create-form':
      return {
        '200': json(
          { type: 'object', properties: { defaults: { type: 'object' } } },
          'what a new record’s form needs',
        ),
      };
    case 'record':
      return {
        [String(answer.status ?? 200)]: json(
          { $ref: `#/components/schemas/${componentName(answer.resource)}` },
          answer.status === 201 ? 'the created record' : 'the record',
        ),
      };
  }
}

function pageSchema(item: Schema): Schema {
  return {
    type: 'object',
    required: ['items', 'total', 'page', 'per_page'],
    properties: {
      items: { type: 'array', items: item },
      total: { type: 'integer', description: 'rows matching, counted up to 10,000 when `total_capped`' },
      total_capped: { type: 'boolean' },
      page: { type: 'integer' },
      per_page: { type: 'integer' },
    },
    additionalProperties: false,
  };
}

/** The error body every failure answers (shared/errors.ts `ErrorBody`), its codes and message keys listed. */
function errorSchema(): Schema {
  const messageRef: Schema = {
    type: 'object',
    required: ['key'],
    properties: {
      key: { type: 'string', enum: Object.keys(CATALOG) },
      params: { type: 'object', additionalProperties: true },
    },
  };
  return {
    type: 'object',
    required: ['message'],
    description:
      '`message` and `errors` are English, for API users and logs; `code` is stable, `message_key` and ' +
      '`error_keys` name messages of the one catalogue for a client to word in its own language.',
    properties: {
      message: { type: 'string' },
      code: { type: 'string', enum: Object.keys(ERROR_CODES) },
      message_key: { type: 'string', enum: Object.keys(CATALOG) },
      message_params: { type: 'object', additionalProperties: true },
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
      error_keys: { type: 'object', additionalProperties: { type: 'array', items: messageRef } },
      references: {
        type: 'object',
        additionalProperties: { type: 'integer' },
        description: 'what keeps a record from being deleted (409 `referenced`): table key → rows',
      },
      timeout: {
        type: 'boolean',
        description: 'the session had existed and expired (401 `session_timeout`)',
      },
    },
    additionalProperties: false,
  };
}

/** Every error code with the status it is answered with. */
function errorCodesText(): string {
  return Object.entries(ERROR_CODES)
    .map(([code, status]) => `\`${code}\` ${status}`)
    .join(', ');
}

export interface DocumentOptions {
  /** the back-office's address, the servers' base (`APP_URL`) */
  serverUrl: string;
  version: string;
}

/** The OpenAPI 3.1 document of the routes an API token can call. */
export function buildOpenApiDocument(routes: readonly RegisteredRoute[], options: DocumentOptions): Schema {
  const paths: Record<string, Record<string, unknown>> = {};
  const resources = new Set<string>();
  for (const route of routes.filter(tokenCallable)) {
    const answer = route.answers;
    if (answer && 'resource' in answer) resources.add(answer.resource);
    const keys = route.anyPermission ?? (route.permission ? [route.permission] : []);
    const operation: Record<string, unknown> = {
      operationId: `${route.method}${openApiPath(route.path)
        .replace(/[{}]/g, '')
        .replace(/[^A-Za-z0-9]+(.)?/g, (_, c?: string) => (c ? c.toUpperCase() : ''))}`,
      tags: [route.path.split('/')[1] || 'api'],
      summary: `${route.method.toUpperCase()} /api${route.path}`,
      description: keys.length
        ? `Needs a token ability ${keys.map((k) => `\`${k}\``).join(' or ')} that its user holds.`
        : 'any signed-in staff user’s token (no permission key)',
      'x-permission': keys.length > 1 ? keys : (keys[0] ?? null),
      parameters: [
        ...parameters(route.schemas?.params, 'path', route.path),
        ...parameters(route.schemas?.query, 'query', route.path),
      ],
      responses: { ...successResponses(route, answer), ...errorResponses(route) },
    };
    if (route.schemas?.body) {
      operation.requestBody = {
        required: true,
        content: { [JSON_TYPE]: { schema: jsonSchema(route.schemas.body) } },
      };
    } else if (
      route.method === 'post' &&
      answer?.kind !== 'record' &&
      /file|logo|photo|import/.test(route.path)
    ) {
      operation.requestBody = {
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              properties: { file: { type: 'string', format: 'binary' } },
              required: ['file'],
            },
          },
        },
      };
    }
    (paths[openApiPath(route.path)] ??= {})[route.method] = operation;
  }
  const schemas: Record<string, Schema> = {
    Error: errorSchema(),
    Lookup: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'label'],
        properties: { id: { type: 'integer' }, label: { type: 'string' } },
        additionalProperties: true,
      },
    },
  };
  for (const resource of [...resources].sort()) schemas[componentName(resource)] = rowSchema(resource);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Study-abroad agency administration API',
      version: options.version,
      description:
        'Every route an API token can call. Authenticate with `Authorization: Bearer <token>` (a token made on ' +
        'the back-office’s API tokens page: it acts with its abilities within its user’s current permissions; no ' +
        'cookie and no CSRF token are needed). Records outside the user’s branch are 404. Errors answer the ' +
        `\`Error\` body; its codes and statuses: ${errorCodesText()}.`,
    },
    servers: [{ url: `${options.serverUrl.replace(/\/$/, '')}/api` }],
    security: [{ bearerToken: [] }],
    paths,
    components: {
      securitySchemes: { bearerToken: { type: 'http', scheme: 'bearer', description: 'an API token' } },
      schemas,
      responses: {
        Error: {
          description: `an error (${errorCodesText()})`,
          content: { [JSON_TYPE]: { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}
