export { default } from '../auth/logout-page';
