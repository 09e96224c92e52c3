import { resourceFormScreen } from '../../../components/resource/resource-form-page';
import { termsConfig } from './terms-config';

export default resourceFormScreen(termsConfig('refund'));
