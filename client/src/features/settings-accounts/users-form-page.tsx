import { resourceFormScreen } from '../../components/resource/resource-form-page';
import { usersConfig } from './users-config';

export default resourceFormScreen(usersConfig);
