import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import type { LoggedResponse } from '../harness';

/**
 * Holds answers to the API description (GET /api/openapi.json) with ajv: the operation is found by method and path
 * (a literal segment before a parameter: `/students/create` before `/students/{id}`), its response by status (or
 * its range, or `default`), and a JSON body is validated against that response's schema; another type must be one
 * the response declares.
 */
export function responseValidator(document: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('date', /^\d{4}-\d{2}-\d{2}$/);
  ajv.addFormat(
    'date-time',
    (value: string) => /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)),
  );
  ajv.addFormat('binary', true);
  ajv.addFormat('email', true);
  ajv.addFormat('uri', true);
  ajv.addSchema(document, 'openapi.json');
  const compiled = new Map<string, ValidateFunction>();

  const pointer = (...parts: string[]) =>
    parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
  const templates = Object.keys(document.paths as object)
    .map((template) => ({
      template,
      pattern: new RegExp(
        `^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}$`,
      ),
      literals: template.split('/').filter((s) => s && !s.startsWith('{')).length,
    }))
    .sort((a, b) => b.literals - a.literals);

  return {
    /** null when the answer is of an operation the document leaves out; else the mismatch, or '' */
    check(response: LoggedResponse): string | null {
      const path = response.url.split('?')[0].replace(/^\/api/, '');
      const method = response.method.toLowerCase();
      const found = templates.find((t) => t.pattern.test(path) && document.paths[t.template][method]);
      if (!found) return null;
      const responses = document.paths[found.template][method].responses as Record<string, any>;
      const status = String(response.status);
      const key = [status, `${status[0]}XX`, 'default'].find((k) => responses[k]);
      const where = `${response.method} ${found.template} ${status}`;
      if (!key) return `${where}: no response declared for this status`;
      let declared = responses[key];
      if (declared.$ref) declared = document.components.responses[String(declared.$ref).split('/').pop()!];
      const content = declared.content as Record<string, { schema?: object }> | undefined;
      if (response.status === 204 || !content) {
        return content && response.status !== 204 ? `${where}: a body was declared, none came` : '';
      }
      const type = response.type || 'none';
      const media = content[type] ? type : content['*/*'] ? '*/*' : null;
      if (!media) return `${where}: ${type} is not declared (${Object.keys(content).join(', ')})`;
      if (media !== 'application/json') return '';
      const id = `openapi.json#${pointer(
        '',
        ...(responses[key].$ref
          ? ['components', 'responses', String(responses[key].$ref).split('/').pop()!]
          : ['paths', found.template, method, 'responses', key]),
        'content',
        media,
        'schema',
      )}`;
      let validate = compiled.get(id);
      if (!validate) {
        validate = ajv.compile({ $ref: id });
        compiled.set(id, validate);
      }
      if (validate(response.body)) return '';
      return `${where}: ${ajv.errorsText(validate.errors?.slice(0, 3))}`;
    },
  };
}
