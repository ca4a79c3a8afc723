export { PatientsPage } from './PatientsPage';
export { PatientDetailPage } from './PatientDetailPage';
