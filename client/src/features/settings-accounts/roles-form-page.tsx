import { resourceFormScreen } from '../../components/resource/resource-form-page';
import { rolesConfig } from './roles-config';

export default resourceFormScreen(rolesConfig);
