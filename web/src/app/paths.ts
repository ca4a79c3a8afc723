/** Every route path of the app, in one place (spec §2). */
export const paths = {
  welcome: '/',
  roleSelection: '/auth',
  login: '/login',
  signup: '/signup',
  forgotPassword: '/forgot-password',
  resetPassword: '/reset-password',
  verifyEmail: '/verify-email',
  home: '/home',
  intake: '/intake',
  clinicalData: '/clinical-data',
  sensorPcg: '/sensor-pcg',
  sensorPpg: '/sensor-ppg',
  sensorEcg: '/sensor-ecg',
  patients: '/patients',
  patientDetail: '/patients/:id',
  profile: '/profile',
  reports: '/reports',
  testResults: '/test-results',
  analysisDetail: '/analyses/:id',
  devices: '/devices',
  settings: '/settings',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];

/** The query parameter that carries the screening through the workflow pages. */
export const SCREENING_PARAM = 'screening';

/** A workflow page for one screening, e.g. `/sensor-pcg?screening=ID`. */
export function screeningPath(
  path: typeof paths.clinicalData | typeof paths.sensorPcg | typeof paths.sensorPpg | typeof paths.sensorEcg,
  screeningId: string,
): string {
  return `${path}?${new URLSearchParams({ [SCREENING_PARAM]: screeningId }).toString()}`;
}

/** One patient's detail page. */
export function patientPath(id: string): string {
  return paths.patientDetail.replace(':id', encodeURIComponent(id));
}

/** One stored analysis's page (waveform and full result). */
export function analysisPath(id: string): string {
  return paths.analysisDetail.replace(':id', encodeURIComponent(id));
}
