/**
 * The typed HTTP client for the Cardio server (same origin, session cookie).
 *
 * Every call goes through `api` (openapi-fetch over the generated `paths`). Failures are turned into
 * two error classes so that screens can tell "the server said no" (`ApiError`, with the server's
 * `detail`) from "the server could not be reached" (`NetworkError`).
 */
import createClient from 'openapi-fetch';
import type { components, paths } from './generated/schema';

export type User = components['schemas']['User'];
export type Role = components['schemas']['Role'];
export type Health = components['schemas']['Health'];
export type Patient = components['schemas']['Patient'];
export type PatientForm = components['schemas']['PatientForm'];
export type PatientPatch = components['schemas']['PatientPatch'];
export type PatientStatus = components['schemas']['Status'];
export type Gender = components['schemas']['Gender'];
export type ClinicalForm = components['schemas']['ClinicalForm'];
export type ClinicalParameters = components['schemas']['ClinicalParameters'];
export type PatientSummary = components['schemas']['PatientSummary'];
export type ClinicalRecord = components['schemas']['ClinicalRecord'];
export type Screening = components['schemas']['Screening'];
export type AuditEntry = components['schemas']['AuditEntry'];
export type Dashboard = components['schemas']['Dashboard'];
export type ModelSummary = components['schemas']['ModelSummary'];
export type ModelMetric = components['schemas']['Metric'];
export type PredictionResult = components['schemas']['PredictionResult'];
export type AdviceItem = components['schemas']['AdviceItem'];
export type DeviceInterpretation = components['schemas']['DeviceInterpretation'];
export type Analysis = components['schemas']['Analysis'];
export type CombinedResult = components['schemas']['CombinedResult'];
export type ModalityResult = components['schemas']['ModalityResult'];
export type MurmurResult = components['schemas']['MurmurResult'];
export type SiteMurmur = components['schemas']['SiteMurmur'];
export type WaveformView = components['schemas']['WaveformView'];
export type Settings = components['schemas']['Settings'];
export type SessionTimeout = components['schemas']['SessionTimeout'];
export type ProfileActivity = components['schemas']['ProfileActivity'];
export type Review = components['schemas']['Review'];
export type ConfirmedStatement = components['schemas']['ConfirmedStatement'];
export type StatementChoice = components['schemas']['StatementChoice'];
export type EcgStatementOption = components['schemas']['EcgStatementOption'];
export type Agreement = components['schemas']['Agreement'];
export type ReportSummary = components['schemas']['ReportSummary'];
export type StorageUsage = components['schemas']['StorageUsage'];
export type DataSettings = components['schemas']['DataSettings'];
export type DataSettingsView = components['schemas']['DataSettingsView'];
export type BackupList = components['schemas']['BackupList'];
export type BackupSummary = components['schemas']['BackupSummary'];
export type GeneratedReport = components['schemas']['GeneratedReport'];
export type Share = components['schemas']['Share'];
export type ShareState = components['schemas']['ShareState'];
export type Invitation = components['schemas']['Invitation'];
export type SharedResult = components['schemas']['SharedResult'];
export type Notification = components['schemas']['Notification'];
export type NotificationFeed = components['schemas']['NotificationFeed'];

/**
 * A value of an error sentence's hole: text or a number, a phrase of the server's table of error
 * sentences (`{term}`), or a sentence of that table inside this one (`{code, params}`).
 */
export type ErrorParam = string | number | { term: string } | CodedError;

/** An error sentence as a code of the server's table (`crates/server/catalogue`) and its parameters. */
export interface CodedError {
  code: string;
  params?: Record<string, ErrorParam>;
}

/**
 * The server answered with an error status. `detail` is its message (English), when it sent one;
 * `coded` the same sentence as a code with parameters, shown in the reader's language.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly detail: string | undefined;
  readonly coded: CodedError | undefined;

  constructor(status: number, detail: string | undefined, coded?: CodedError) {
    super(detail ?? `HTTP ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.detail = detail;
    this.coded = coded;
  }
}

/** No response came back (offline, server down, connection refused). */
export class NetworkError extends Error {
  constructor(cause: unknown) {
    super('Network error', { cause });
    this.name = 'NetworkError';
  }
}

function baseUrl(): string {
  // openapi-fetch builds a `Request`, which needs an absolute URL outside a browser page.
  return typeof window === 'undefined' ? '' : window.location.origin;
}

export const api = createClient<paths>({
  baseUrl: baseUrl(),
  credentials: 'same-origin',
  // Resolve `fetch` at call time (tests replace it after this module is loaded).
  fetch: (request) => globalThis.fetch(request),
});

/**
 * The header that marks a request as background polling (a list re-read on a timer): the server does
 * not count it as the person's activity for the idle session timeout (Settings > Session Timeout).
 */
export const BACKGROUND_HEADER = 'X-Cardio-Background';

/**
 * The per-request options of a polling query's request, e.g. `api.GET('/api/notifications', background)`.
 * Requests the person makes (opening, saving, clicking) never carry it.
 */
export const background = { headers: { [BACKGROUND_HEADER]: '1' } };

/** Reads the server's message from an error body: `detail`, then `message`. */
export function errorDetail(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['detail', 'message']) {
      const value = record[key];
      if (typeof value === 'string' && value.trim() !== '') return value;
    }
  }
  return undefined;
}

/** Reads the code and parameters of an error body, when it has them. */
export function errorCode(body: unknown): CodedError | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const { code, params } = body as Record<string, unknown>;
  if (typeof code !== 'string' || code === '') return undefined;
  const isRecord = params !== null && typeof params === 'object' && !Array.isArray(params);
  return { code, params: isRecord ? (params as Record<string, ErrorParam>) : {} };
}

type Result<T> = { data?: T; error?: unknown; response: Response };

/**
 * Awaits an openapi-fetch call and returns its data, or throws `ApiError` / `NetworkError`.
 */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  let result: Result<T>;
  try {
    result = await call;
  } catch (cause) {
    // `fetch` rejects with a TypeError when no response arrives.
    if (cause instanceof TypeError) throw new NetworkError(cause);
    throw cause;
  }
  if (!result.response.ok) {
    throw new ApiError(result.response.status, errorDetail(result.error), errorCode(result.error));
  }
  return result.data as T;
}
