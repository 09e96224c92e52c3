import { TeamOutlined } from '@ant-design/icons';
import type { DeclaredPageOptions } from '../../components/resource/declared-routes';

/**
 * The students' screens beyond their declarations (shared/resources/students.ts): the spec's routes
 * (`/students`, `/students/create`, the tabs `/students/{basic,family,application,admission,grade-report,
 * attachment}/:id`), the list's filters and export and the child lists — the family tab's two, family members and
 * education, whose records open under it (`/students/family/5/member/12`, the declaration's `tabChildren`) — all
 * derive from them; this names the menu icon and the overrides module (loaded with the screens).
 */
export const STUDENT_PAGE: DeclaredPageOptions = {
  icon: TeamOutlined,
  overrides: () => import('./students-overrides'),
  // the invoices tab (`order`) is at the spec's `/students/invoice/:id`
  tabSegments: { order: 'invoice' },
};
