export {
  fetchPatient,
  fetchPatients,
  patientQueryOptions,
  patientsQueryOptions,
  updatePatient,
  usePatient,
  usePatients,
  useUpdatePatient,
  type UpdatePatientInput,
} from './patients';
export {
  clinicalHistoryQueryOptions,
  fetchClinicalHistory,
  fetchPatientScreenings,
  patientScreeningsQueryOptions,
  startScreening,
  useClinicalHistory,
  usePatientScreenings,
  useStartScreening,
} from './records';
