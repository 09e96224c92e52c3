import { render } from '@testing-library/react';
import { act } from 'react';
import i18next from 'i18next';
import { initI18n } from '../i18n/i18n';
import { AppProviders } from './providers';
import { makeStore } from './store';

describe('AppProviders', () => {
  it('reads cached records again when the language changes, so their server-side names follow it', async () => {
    initI18n('zh_HK');
    const store = makeStore('backoffice');
    const dispatch = jest.spyOn(store, 'dispatch');
    const { unmount } = render(
      <AppProviders store={store}>
        <span />
      </AppProviders>,
    );
    const invalidations = () =>
      dispatch.mock.calls.filter(([action]) =>
        String((action as { type?: string }).type).includes('invalidateTags'),
      );
    expect(invalidations()).toHaveLength(0);
    await act(() => i18next.changeLanguage('en'));
    expect(invalidations()).toHaveLength(1);
    expect(JSON.stringify(invalidations()[0][0])).toContain('Resource');
    unmount();
    // no listener left behind
    await act(() => i18next.changeLanguage('zh_HK'));
    expect(invalidations()).toHaveLength(1);
  });
});
