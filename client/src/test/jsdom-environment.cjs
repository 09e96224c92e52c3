// jsdom lacks the Fetch API classes react-router's data routers use (Request, Response, Headers) and
// TextEncoder. Lend them Node's own; AbortController/AbortSignal come along so that Node's Request
// accepts the signals react-router creates.
const { TestEnvironment } = require('jest-environment-jsdom');

class JsdomWithFetchEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    const names = [
      'Request',
      'Response',
      'Headers',
      'TextEncoder',
      'TextDecoder',
      'ReadableStream',
      'AbortController',
      'AbortSignal',
      'structuredClone',
    ];
    for (const name of names) {
      if (globalThis[name]) this.global[name] = globalThis[name];
    }
  }
}

module.exports = JsdomWithFetchEnvironment;
