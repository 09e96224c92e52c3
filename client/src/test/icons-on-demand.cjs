/* eslint-disable @typescript-eslint/no-require-imports */
// `@ant-design/icons` in the jsdom tests: each icon loaded when first used (on-demand-barrel.cjs says why)
const path = require('node:path');
const { onDemandBarrel } = require('./on-demand-barrel.cjs');

module.exports = onDemandBarrel(
  path.join(path.dirname(require.resolve('@ant-design/icons/package.json')), 'lib', 'index.js'),
);
