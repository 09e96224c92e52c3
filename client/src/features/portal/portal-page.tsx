import { useEffect, useRef, type ReactNode } from 'react';
import { Typography } from 'antd';
import { useStore } from 'react-redux';
import { useLoaderData } from 'react-router-dom';
import type { AppStore } from '../../app/store';
import { appActions } from '../../app/app-slice';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import type { RouteData } from '../../app/routes/route-data';
import type { Student } from '../../app/types';
import { refreshStudent } from './portal-api';
import { PortalLockBar } from './portal-lock';

/**
 * A portal screen: its one h1, the lock's standing (or the submit action) and its content. The student's record is
 * read as the screen opens: a submission made elsewhere, or a consultant's reopening, shows at once.
 */
export function PortalPage({
  title,
  intro,
  children,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}) {
  const dispatch = useAppDispatch();
  const store = useStore() as AppStore;
  useEffect(() => {
    void refreshStudent(dispatch, store.getState().app.student);
  }, [dispatch, store]);
  return (
    <div className="portal-page">
      <Typography.Title level={1} style={{ fontSize: 24, marginTop: 0 }}>
        {title}
      </Typography.Title>
      <PortalLockBar />
      {intro}
      {children}
    </div>
  );
}

/** The route's data (the answer of its data call merged into it). */
export function useRouteData(): RouteData {
  return useLoaderData() as RouteData;
}

/**
 * The answer's submission date when it carries one (`info_submitted_at`; `null` once reopened), or whether the forms
 * are locked (`locked`), kept in the store: every screen then shows the lock as the server sees it now.
 */
export function useSyncSubmission(answer: Record<string, unknown> | null | undefined) {
  const dispatch = useAppDispatch();
  const student = useAppSelector((s) => s.app.student);
  const sent =
    answer && 'info_submitted_at' in answer
      ? ((answer.info_submitted_at as string | null) ?? null)
      : undefined;
  const locked = answer && typeof answer.locked === 'boolean' ? answer.locked : undefined;
  const asked = useRef(false);
  // each answer is applied once: the store's student changing afterwards (a submission made on this page) must not
  // be put back by the answer read before it
  const applied = useRef<unknown>(undefined);
  useEffect(() => {
    if (!student || applied.current === answer) return;
    applied.current = answer;
    const held = (student.info_submitted_at as string | null | undefined) ?? null;
    if (sent !== undefined) {
      if (held !== sent) dispatch(appActions.setStudent({ ...student, info_submitted_at: sent } as Student));
    } else if (locked === false && held !== null) {
      dispatch(appActions.setStudent({ ...student, info_submitted_at: null } as Student));
    } else if (locked === true && held === null && !asked.current) {
      // the date is the student record's: read it once
      asked.current = true;
      void refreshStudent(dispatch, student);
    }
  }, [answer, sent, locked, student, dispatch]);
}
