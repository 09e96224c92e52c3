import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return name.endsWith('.tsx') && !name.endsWith('.test.tsx') ? [path] : [];
  });
}

/** The props of every antd `<Table …>` element in a file: from the tag to its closing `>` at the tag's indent. */
function tableTags(text: string): string[] {
  const tags: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const at = line.search(/<Table(<[^>]*>)?(\s|$)/);
    if (at < 0) return;
    const indent = line.slice(0, line.search(/\S/));
    const end = lines.findIndex((l, j) => j > i && (l === `${indent}/>` || l === `${indent}>`));
    tags.push(lines.slice(i, end < 0 ? i + 1 : end + 1).join('\n'));
  });
  return tags;
}

describe('loading shows on the top progress bar only (spec §9: no spinner)', () => {
  it('no table takes antd’s `loading` spinner (firstLoadLocale shows a skeleton until the first answer)', () => {
    const spinning = sources(SRC).flatMap((file) =>
      tableTags(readFileSync(file, 'utf8'))
        .filter((tag) => /^\s+loading=/m.test(tag))
        .map(() => relative(SRC, file)),
    );
    expect(spinning).toEqual([]);
  });

  it('finds the tables it checks', () => {
    const tables = sources(SRC).flatMap((file) => tableTags(readFileSync(file, 'utf8')));
    expect(tables.length).toBeGreaterThan(3);
    expect(tables.some((tag) => tag.includes('firstLoadLocale('))).toBe(true);
  });
});
