import { lazy, Suspense } from 'react';
import { can } from '../../../../shared/permissions';
import { useAppSelector } from '../../app/hooks';
import type { DeclarationOverrides } from '../../components/resource/from-declaration';
import type { ResourceRow } from '../../components/resource/types';

const FileAttachments = lazy(async () => ({
  default: (await import('../files/file-attachments')).FileAttachments,
}));

/** The attachment tab: the school's files (attached by whoever may change the school). */
function SchoolAttachments({ school }: { school: ResourceRow }) {
  const user = useAppSelector((s) => s.app.user);
  return (
    <Suspense fallback={null}>
      <FileAttachments ownerType="school" ownerId={school.id} canAttach={can(user, 'schools.update')} />
    </Suspense>
  );
}

/**
 * What the schools' screens show beyond their declarations: the basic tab is the school's form (area, then
 * one of its districts; the logo uploaded there), the subject and admission tabs list the school's subjects and
 * intakes (derived from `school_subject` and `school_admission`), the attachment tab its files.
 */
const overrides: DeclarationOverrides = {
  recordTabs: {
    attachment: { render: (school) => <SchoolAttachments school={school} /> },
    // an intake reads by its name, year, term and application dates (the rest is on its form)
    admission: { child: { columns: { semester_start: false } } },
  },
};

export default overrides;
