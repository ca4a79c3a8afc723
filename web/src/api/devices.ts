/**
 * The device API shared by the Devices page, the screening steps (a recording pushed by a network
 * device) and the serial layer (which reports its events to the connection log).
 */
import { api, background, unwrap } from './client';
import type { components } from './generated/schema';

export type NetworkDevice = components['schemas']['NetworkDevice'];
export type DeviceType = components['schemas']['DeviceType'];
export type RegisteredDevice = components['schemas']['RegisteredDevice'];
export type DeviceRecording = components['schemas']['DeviceRecording'];
export type LogEntry = components['schemas']['LogEntry'];
export type NewLogEntry = components['schemas']['NewLogEntry'];

/** How a read is made: `background` marks a polling query's request (see `BACKGROUND_HEADER`). */
export interface ReadOptions {
  background?: boolean;
}

export function fetchDevices({ background: polling = false }: ReadOptions = {}): Promise<NetworkDevice[]> {
  return unwrap(api.GET('/api/devices', polling ? background : {}));
}

export function registerDevice(name: string, type: DeviceType): Promise<RegisteredDevice> {
  return unwrap(api.POST('/api/devices', { body: { name, type } }));
}

export function renameDevice(id: string, name: string): Promise<NetworkDevice> {
  return unwrap(api.PATCH('/api/devices/{id}', { params: { path: { id } }, body: { name } }));
}

export function rotateDeviceToken(id: string): Promise<RegisteredDevice> {
  return unwrap(api.POST('/api/devices/{id}/token', { params: { path: { id } } }));
}

export async function revokeDevice(id: string): Promise<void> {
  await unwrap(api.DELETE('/api/devices/{id}', { params: { path: { id } } }));
}

/** The doctor's pushed recordings, newest first (of one device when given). */
export function fetchDeviceRecordings(
  deviceId: string | null,
  limit = 50,
  { background: polling = false }: ReadOptions = {},
): Promise<DeviceRecording[]> {
  const query = deviceId ? { device_id: deviceId, limit } : { limit };
  return unwrap(api.GET('/api/devices/recordings', { params: { query }, ...(polling ? background : {}) }));
}

/** Attaches a pushed recording to a screening (a heart sound at `site` when given). */
export function attachDeviceRecording(id: string, screeningId: string, site?: string): Promise<DeviceRecording> {
  return unwrap(
    api.POST('/api/devices/recordings/{id}/attach', {
      params: { path: { id } },
      body: site ? { screening_id: screeningId, site } : { screening_id: screeningId },
    }),
  );
}

export function fetchDeviceLog(limit = 50, { background: polling = false }: ReadOptions = {}): Promise<LogEntry[]> {
  return unwrap(api.GET('/api/devices/log', { params: { query: { limit } }, ...(polling ? background : {}) }));
}

export async function writeDeviceLog(entry: NewLogEntry): Promise<void> {
  await unwrap(api.POST('/api/devices/log', { body: entry }));
}
