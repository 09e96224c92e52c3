/* eslint-disable @typescript-eslint/no-require-imports */
// `antd` in the jsdom tests: each component loaded when first used (on-demand-barrel.cjs says why)
const path = require('node:path');
const { onDemandBarrel } = require('./on-demand-barrel.cjs');

module.exports = onDemandBarrel(
  path.join(path.dirname(require.resolve('antd/package.json')), 'lib', 'index.js'),
);
