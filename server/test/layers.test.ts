import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/**
 * The layering rule (design doc): "Repositories are the only code that touches Knex." Every .ts file under
 * server/src is parsed (comments and strings are not code, so they never count) and each use of Knex as a query
 * builder outside the allowed set is named by file and line: a Knex called as a function (`db('users')`,
 * `trx(table)`, `uow.trx(…)`, `knex(…)`), its builder members (`db.raw(…)`, `trx.schema`, `db.from(…)`, …), and
 * a value import of `knex` itself. A Knex is recognised by its name (`db`, `trx`, `knex`) or by a declared type
 * `Knex`, `Trx`, `Db` or `Knex.Transaction` (a parameter or variable of any name). `db.transaction(…)` (a
 * service's unit of work) and a query builder handed in (`qb.where…`) are not queries of their own.
 */

const root = resolve(__dirname, '..', '..');
const SRC = join(root, 'server', 'src');

/** Where Knex may be touched: the Knex set-up, locks and migrations, the session store adapter, repositories. */
function allowed(file: string): boolean {
  const rel = relative(SRC, file).split(sep).join('/');
  return rel.startsWith('db/') || rel === 'sessions/knex-session-store.ts' || rel.endsWith('.repository.ts');
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The names a Knex goes by in this code base. */
const KNEX_NAMES = new Set(['db', 'trx', 'knex']);
/** Types that make a variable a Knex whatever its name. */
const KNEX_TYPES = new Set(['Knex', 'Trx', 'Db', 'Knex.Transaction', 'Transaction']);
/** Members of a Knex that build or run a query (not `transaction`, `destroy`, `on`, `client`). */
const BUILDER_MEMBERS = new Set([
  'raw',
  'schema',
  'from',
  'select',
  'table',
  'queryBuilder',
  'insert',
  'update',
  'delete',
  'where',
  'first',
  'count',
  'with',
  'into',
  'fn',
  'ref',
  'batchInsert',
  'migrate',
  'seed',
]);

export interface Finding {
  line: number;
  code: string;
  what: string;
}

function typeNames(type: ts.TypeNode | undefined): string[] {
  if (!type) return [];
  if (ts.isTypeReferenceNode(type)) return [type.typeName.getText()];
  if (ts.isUnionTypeNode(type)) return type.types.flatMap(typeNames);
  if (ts.isParenthesizedTypeNode(type)) return typeNames(type.type);
  return [];
}

/** The name an expression ends with: `db` for `db`, `this.db`, `deps.db`, `uow.trx`, `db!`, `(db)`. */
function trailingName(node: ts.Expression): string | undefined {
  let e = node;
  while (ts.isParenthesizedExpression(e) || ts.isNonNullExpression(e) || ts.isAsExpression(e))
    e = e.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return undefined;
}

/** Every use of Knex as a query builder in `text` (the source of one file). */
export function knexUses(text: string, fileName = 'file.ts'): Finding[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const isKnexTyped = (type: ts.TypeNode | undefined) => typeNames(type).some((t) => KNEX_TYPES.has(t));
  // variables and properties declared as a Knex, whatever they are called (a parameter counts in its function)
  const names = new Set(KNEX_NAMES);
  const declared = (node: ts.Node): void => {
    if (
      (ts.isVariableDeclaration(node) || ts.isPropertySignature(node) || ts.isPropertyDeclaration(node)) &&
      ts.isIdentifier(node.name) &&
      isKnexTyped(node.type)
    ) {
      names.add(node.name.text);
    }
    ts.forEachChild(node, declared);
  };
  declared(sf);

  const found: Finding[] = [];
  const report = (node: ts.Node, what: string) => {
    const { line } = sf.getLineAndCharacterOfPosition(node.getStart(sf));
    found.push({ line: line + 1, code: text.split('\n')[line].trim(), what });
  };
  const visit = (node: ts.Node, names: ReadonlySet<string>): void => {
    if (ts.isFunctionLike(node)) {
      const params = node.parameters.filter((p) => ts.isIdentifier(p.name) && isKnexTyped(p.type));
      if (params.length) names = new Set([...names, ...params.map((p) => (p.name as ts.Identifier).text)]);
    }
    if (ts.isCallExpression(node)) {
      const name = trailingName(node.expression);
      if (name !== undefined && names.has(name)) report(node, `calls ${name}(…) as a query builder`);
    } else if (ts.isPropertyAccessExpression(node) && BUILDER_MEMBERS.has(node.name.text)) {
      const name = trailingName(node.expression);
      if (name !== undefined && names.has(name)) report(node, `uses ${name}.${node.name.text}`);
    } else if (
      ts.isImportDeclaration(node) &&
      ts.isStringLiteral(node.moduleSpecifier) &&
      node.moduleSpecifier.text === 'knex' &&
      node.importClause &&
      !node.importClause.isTypeOnly &&
      node.importClause.name
    ) {
      report(node, 'imports knex itself');
    }
    ts.forEachChild(node, (child) => visit(child, names));
  };
  visit(sf, names);
  return found;
}

const files = sources(SRC);

describe('the scanner', () => {
  it('finds the ways code touches Knex', () => {
    const uses = knexUses(
      [
        "const rows = await db('options').where('key', key).select('value');",
        "await lockForUpdate(trx, trx('students').where('id', id).select('id'));",
        "await lockForUpdate(uow.trx, uow.trx(def.table).where('id', id).select('id'));",
        "const x = await db.raw('select 1');",
        'await trx.raw(sql);',
        "if (await this.db.schema.hasTable('users')) {}",
        'const k = knex({ client: "mysql2" });',
        "function f(conn: Knex) { return conn('users').first(); }",
        "function g(t: Knex.Transaction) { return t.raw('select 1'); }",
        "const h = (tx: Trx) => tx('users').first();",
        "import knex from 'knex';",
      ].join('\n'),
    );
    expect(uses.map((u) => u.line)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
  });

  it('leaves alone comments, strings, transactions, type imports and query builders handed in', () => {
    const uses = knexUses(
      [
        "import type { Knex } from 'knex';",
        "// db('users') in a comment",
        "/** trx.raw('x') in a doc comment */",
        'const text = "db(\'users\')";',
        'return db.transaction(async (trx) => work(trx));',
        "qb.whereRaw('1 = 0').where('id', 1);",
        'await db.destroy();',
        'const rows = await usersRepository.findById(db, 1);',
        'createDb(url);',
        'function f(t: Trx) { return 1; }',
        "const label = t('common.save');",
      ].join('\n'),
    );
    expect(uses).toEqual([]);
  });

  it('reads the real sources: the repositories, which may, do touch Knex', () => {
    expect(files.length).toBeGreaterThan(50);
    const repositories = files.filter((f) => f.endsWith('.repository.ts'));
    expect(repositories.length).toBeGreaterThan(5);
    expect(repositories.flatMap((f) => knexUses(readFileSync(f, 'utf8'), f)).length).toBeGreaterThan(20);
  });
});

it('touches Knex only in the db layer, the session store and repositories', () => {
  const offences = files
    .filter((file) => !allowed(file))
    .flatMap((file) =>
      knexUses(readFileSync(file, 'utf8'), file).map(
        (u) => `${relative(root, file).split(sep).join('/')}:${u.line}: ${u.what}: ${u.code}`,
      ),
    );
  expect(offences).toEqual([]);
});
