import { TeamOutlined } from '@ant-design/icons';
import type { DeclaredPageOptions } from '../../components/resource/declared-routes';

/**
 * The students' screens beyond their declarations (shared/resources/students.ts): the spec's routes
 * (`/students`, `/students/create`, the tabs `/students/{basic,family,application,admission,grade-report,
 * attachment}/:id`), the list's filters and export and the child lists all derive from them; this names the menu
 * icon, the overrides module (loaded with the screens), and the family tab's two lists — family members and
 * education — whose records open under it (`/students/family/5/member/12`, `/students/family/5/education/create`).
 */
export const STUDENT_PAGE: DeclaredPageOptions = {
  icon: TeamOutlined,
  overrides: () => import('./students-overrides'),
  tabChildren: { family: { member: 'student_family', education: 'student_education' } },
};
