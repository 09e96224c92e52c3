/* eslint-disable @typescript-eslint/no-require-imports */
const fs = require('node:fs');
const path = require('node:path');

/**
 * A package's CommonJS barrel (antd, @ant-design/icons) for the jsdom tests, with each export's module loaded when
 * it is first read. Jest loads the barrels as CommonJS, where `import { Button } from 'antd'` evaluates every
 * component (1.6 s) and `import { EditOutlined } from '@ant-design/icons'` every icon (1.4 s), in every test file;
 * the app's build takes only what it uses. The names and their modules are read off the barrel's own source
 * (`Object.defineProperty(exports, "Button", … return _button.default …)` and `var _button = …require("./button")`,
 * and `Object.keys(_icons).forEach(…)` for a re-exported barrel); a name it does not list there comes from the
 * whole barrel, loaded then.
 */
function onDemandBarrel(indexFile) {
  const getters = new Map();
  collect(indexFile, getters);
  const cache = new Map();
  let whole;
  const read = (name) => {
    if (!cache.has(name)) {
      const getter = getters.get(name);
      cache.set(name, getter ? getter() : (whole ??= require(indexFile))[name]);
    }
    return cache.get(name);
  };
  return new Proxy(
    { __esModule: true },
    {
      get: (target, name) => (typeof name !== 'string' || name === '__esModule' ? target[name] : read(name)),
      has: (_target, name) =>
        name === '__esModule' || getters.has(name) || name in (whole ??= require(indexFile)),
    },
  );
}

function collect(file, getters) {
  const source = fs.readFileSync(file, 'utf8');
  const dir = path.dirname(file);
  const modules = new Map();
  for (const [, variable, relative] of source.matchAll(
    /var (_\w+) = (?:_interopRequireDefault\()?require\("(\.[^"]+)"\)/g,
  )) {
    modules.set(variable, path.join(dir, relative));
  }
  for (const [, name, variable, property] of source.matchAll(
    /Object\.defineProperty\(exports, "(\w+)", \{\s*enumerable: true,\s*get: function \(\) \{\s*return (_\w+)\.(\w+);/g,
  )) {
    const module = modules.get(variable);
    if (!module || getters.has(name)) continue;
    getters.set(name, () => {
      const loaded = require(module);
      return loaded && loaded.__esModule
        ? loaded[property]
        : property === 'default'
          ? loaded
          : loaded[property];
    });
  }
  for (const [, variable] of source.matchAll(/Object\.keys\((_\w+)\)\.forEach/g)) {
    const module = modules.get(variable);
    if (module) collect(require.resolve(module), getters);
  }
}

module.exports = { onDemandBarrel };
