import { resourceListScreen } from '../../../components/resource/resource-list-page';
import { auditConfig } from './audit-config';

export default resourceListScreen(auditConfig);
