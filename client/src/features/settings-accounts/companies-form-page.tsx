import { resourceFormScreen } from '../../components/resource/resource-form-page';
import { companiesConfig } from './companies-config';

export default resourceFormScreen(companiesConfig);
