// jsdom lacks the Fetch API classes react-router's data routers use (Request, Response, Headers) and
// TextEncoder. Lend them Node's own; AbortController/AbortSignal come along so that Node's Request
// accepts the signals react-router creates.
import { TestEnvironment } from 'jest-environment-jsdom';

type EnvironmentArgs = ConstructorParameters<typeof TestEnvironment>;

const FROM_NODE = [
  'Request',
  'Response',
  'Headers',
  'TextEncoder',
  'TextDecoder',
  'ReadableStream',
  'AbortController',
  'AbortSignal',
  'structuredClone',
] as const;

export default class JsdomWithFetchEnvironment extends TestEnvironment {
  constructor(config: EnvironmentArgs[0], context: EnvironmentArgs[1]) {
    super(config, context);
    const target = this.global as unknown as Record<string, unknown>;
    const source = globalThis as unknown as Record<string, unknown>;
    for (const name of FROM_NODE) {
      if (source[name]) target[name] = source[name];
    }
  }
}
