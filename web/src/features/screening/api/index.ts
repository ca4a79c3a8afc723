export { createPatient, useCreatePatient } from './patients';
export { createScreening, fetchScreening, screeningQueryOptions, useCreateScreening, useScreening } from './screenings';
export { saveClinical, useSaveClinical, type SaveClinicalInput } from './clinical';
export {
  combineScreening,
  fetchScreeningAnalyses,
  screeningAnalysesQueryOptions,
  useScreeningAnalyses,
  useUploadRecording,
} from './analyses';
