import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { Provider } from 'react-redux';
import { makeStore } from '../../app/store';
import { useUnsavedForm } from './use-unsaved-form';

describe('useUnsavedForm (the profile and API-token forms under the unsaved-changes guard)', () => {
  it('raises the flag on a change, lowers it when every changed form is saved or gone', () => {
    const store = makeStore('backoffice');
    const wrapper = ({ children }: { children: ReactNode }) => <Provider store={store}>{children}</Provider>;
    const a = renderHook(() => useUnsavedForm(), { wrapper });
    const b = renderHook(() => useUnsavedForm(), { wrapper });
    act(() => a.result.current.onValuesChange());
    act(() => b.result.current.onValuesChange());
    expect(store.getState().app.unsavedChanges).toBe(true);
    act(() => a.result.current.saved());
    expect(store.getState().app.unsavedChanges).toBe(true);
    b.unmount();
    expect(store.getState().app.unsavedChanges).toBe(false);
    act(() => a.result.current.onValuesChange());
    expect(store.getState().app.unsavedChanges).toBe(true);
    act(() => a.result.current.saved());
    expect(store.getState().app.unsavedChanges).toBe(false);
  });
});
