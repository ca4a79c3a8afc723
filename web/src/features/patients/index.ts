export { PatientsPage } from './PatientsPage';
