import type { ReactNode } from 'react';
import { Tabs } from 'antd';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';

export interface DetailTab {
  key: string;
  label: ReactNode;
  children: ReactNode;
}

/**
 * A record's page with tabs: the selected tab is the app state's `selectedTab` (an index), which the shell
 * resets to the first tab when the path changes (spec §2 "Navigation behaviour").
 */
export function ResourceDetailTabs({ tabs }: { tabs: DetailTab[] }) {
  const dispatch = useAppDispatch();
  const selected = useAppSelector((s) => s.app.selectedTab);
  const index = selected >= 0 && selected < tabs.length ? selected : 0;
  return (
    <Tabs
      activeKey={tabs[index]?.key}
      onChange={(key) =>
        dispatch(
          appActions.setSelectedTab(
            Math.max(
              0,
              tabs.findIndex((tab) => tab.key === key),
            ),
          ),
        )
      }
      items={tabs}
    />
  );
}
