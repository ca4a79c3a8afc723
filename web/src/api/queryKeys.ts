/**
 * Query keys shared by several features (features never import each other, so a mutation in one
 * feature invalidates another feature's data through these keys).
 */
export const queryKeys = {
  /** The signed-in account (`null` when signed out). */
  me: ['auth', 'me'] as const,
  /** The signed-in user's settings. */
  settings: ['settings'] as const,
  /** The profile page's activity figures. */
  profileActivity: ['profile', 'activity'] as const,
  /** Every list of patients (all searches). */
  patients: ['patients'] as const,
  patientList: (q: string) => ['patients', 'list', { q }] as const,
  patient: (id: string) => ['patients', 'detail', id] as const,
  patientClinical: (id: string) => ['patients', 'detail', id, 'clinical'] as const,
  patientScreenings: (id: string) => ['patients', 'detail', id, 'screenings'] as const,
  /** Every screening. */
  screenings: ['screenings'] as const,
  screening: (id: string) => ['screenings', id] as const,
  /** The audit trail (home's recent activity). */
  audit: ['audit'] as const,
  auditRecent: (limit: number) => ['audit', { limit }] as const,
  /** Home's figures. */
  dashboard: ['dashboard'] as const,
  dashboardSince: (since: number) => ['dashboard', { since }] as const,
  /** Every list of stored analyses. */
  analyses: ['analyses'] as const,
  analysesOfType: (type: string) => ['analyses', { type }] as const,
  patientAnalyses: (patientId: string) => ['analyses', { patientId }] as const,
  screeningAnalyses: (screeningId: string) => ['analyses', { screeningId }] as const,
  analysis: (id: string) => ['analyses', 'detail', id] as const,
  /** A result's sign-off history. */
  reviews: (kind: 'analysis' | 'screening', id: string) => ['reviews', kind, id] as const,
  analysisWaveform: (id: string, start: number, span: number) =>
    ['analyses', 'detail', id, 'waveform', { start, span }] as const,
  /** The Reports page's figures for a period start (null: all time). */
  reportSummary: (from: number | null) => ['analyses', 'report', { from }] as const,
  /** The table of ECG interpretation statements a doctor confirms or adds. */
  ecgStatements: ['ecg', 'statements'] as const,
  /** The models and their validated figures (welcome page). */
  models: ['models'] as const,
  /** Everything about devices: the registry, pushed recordings, the connection log. */
  devices: ['devices'] as const,
  deviceList: ['devices', 'list'] as const,
  deviceRecordings: (deviceId: string | null) => ['devices', 'recordings', { deviceId }] as const,
  deviceLog: ['devices', 'log'] as const,
};

/** What to refetch after a patient, a screening or clinical data was written. */
export const afterPatientWrite = [queryKeys.patients, queryKeys.audit, queryKeys.dashboard] as const;
