import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// semver comes with the installed tree (npm's own rules for `engines` ranges); it has no types of its own here
const semver = createRequire(__filename)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
};

const root = path.resolve(__dirname, '../..');
const readJson = (file: string): unknown => JSON.parse(fs.readFileSync(path.join(root, file), 'utf8'));

/**
 * The README and `engines` promise the oldest Node the app runs on (issue 31 §17: `npm install` warned
 * EBADENGINE because a dev dependency's `cookie@2` asks for Node ≥ 22). Every package the lock file installs,
 * dev dependencies included, must accept that Node, or `npm install` on it warns.
 */
describe('engines: every locked package accepts the oldest Node the README promises', () => {
  const pkg = readJson('package.json') as { engines: { node: string } };
  const lock = readJson('package-lock.json') as {
    packages: Record<string, { engines?: { node?: string } | string[]; dev?: boolean }>;
  };
  const oldest = semver.minVersion(pkg.engines.node)?.version ?? '';

  it('the README names the same minimum as engines', () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    expect(oldest).toMatch(/^\d+\.\d+\.\d+$/);
    const [major, minor] = oldest.split('.');
    expect(readme).toContain(`\`engines\` says \`${pkg.engines.node}\``);
    expect(readme).toContain(`${major}.${minor}`);
  });

  it('no locked package asks for a newer Node', () => {
    const refusing: string[] = [];
    let checked = 0;
    for (const [where, entry] of Object.entries(lock.packages)) {
      const range = entry.engines && !Array.isArray(entry.engines) ? entry.engines.node : undefined;
      if (!where || typeof range !== 'string') continue;
      checked += 1;
      if (!semver.satisfies(oldest, range)) refusing.push(`${where} (node ${range})`);
    }
    console.log(
      `engines: ${checked} locked packages name a Node range; ${refusing.length} refuse Node ${oldest}`,
    );
    expect(refusing).toEqual([]);
  });
});
