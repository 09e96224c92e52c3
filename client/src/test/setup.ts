import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';
import { StyleContext } from '@ant-design/cssinjs';
import { addCatalogue, initI18n } from '../i18n/i18n';
import { en, zhHK } from '../locales';

// a screen's code is loaded by its route's loader (app/routes/build-routes.tsx): the first visit to a screen in a
// test file compiles its modules, which on a loaded 2-core machine took more than the default 1 s. `findBy…` still
// answers as soon as the element is there.
configure({ asyncUtilTimeout: 5_000 });

// antd reads media queries (Grid, responsive observers); jsdom has none.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}
if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}

// jsdom has no MessageChannel (antd's form schedules a macro task with one). A timer does the same job
// here without keeping ports open.
if (!('MessageChannel' in window)) {
  class MessageChannelStub {
    port1: { onmessage: ((event: { data: unknown }) => void) | null } = { onmessage: null };
    port2 = {
      postMessage: (data: unknown) => {
        setTimeout(() => this.port1.onmessage?.({ data }), 0);
      },
    };
  }
  Object.defineProperty(window, 'MessageChannel', { writable: true, value: MessageChannelStub });
}

// jsdom implements getComputedStyle but not its pseudo-element argument (antd measures scrollbars with it).
const getComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// both languages at hand at once (the app loads each when first used)
addCatalogue('en', en);
addCatalogue('zh_HK', zhHK);
initI18n('en');

beforeEach(() => {
  window.localStorage.clear();
});

// antd's CSS-in-JS writes thousands of rules into <style> tags, and jsdom matches every rule against the element
// on each getComputedStyle — which testing-library's role queries call for every ancestor of every candidate:
// four fifths of a page test's time. Tests render without those rules (cssinjs's own "server" mode: styles are
// generated, not injected); what a test checks is structure, text and behaviour, not antd's stylesheet.
(StyleContext as unknown as { _currentValue: Record<string, unknown> })._currentValue.mock = 'server';
