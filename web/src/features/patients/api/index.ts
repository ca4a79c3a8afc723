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
  fetchPatientAnalyses,
  fetchPatientScreenings,
  patientAnalysesQueryOptions,
  patientScreeningsQueryOptions,
  startScreening,
  useClinicalHistory,
  usePatientAnalyses,
  usePatientScreenings,
  useStartScreening,
} from './records';
