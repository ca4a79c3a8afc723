/** Every route path of the app, in one place (spec §2). */
export const paths = {
  welcome: '/',
  roleSelection: '/auth',
  login: '/login',
  signup: '/signup',
  home: '/home',
  intake: '/intake',
  clinicalData: '/clinical-data',
  sensorPcg: '/sensor-pcg',
  sensorPpg: '/sensor-ppg',
  sensorEcg: '/sensor-ecg',
  patients: '/patients',
  profile: '/profile',
  reports: '/reports',
  testResults: '/test-results',
  devices: '/devices',
  settings: '/settings',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
