/**
 * One [`SerialManager`] for the whole app, so that a port connected on the Devices page stays open
 * while the doctor goes through the screening steps and records from it. Its events (connected,
 * disconnected, errors, test data) go to the server's connection log.
 */
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { writeDeviceLog } from '../../api/devices';
import { queryKeys } from '../../api/queryKeys';
import { browserSerial, SerialManager, type PortView, type SerialEvent } from './serialPorts';

const SerialContext = createContext<SerialManager | null>(null);

export function SerialProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [manager] = useState(
    () =>
      new SerialManager(browserSerial(), (event: SerialEvent) => {
        // The log is a convenience: a failed write (signed out, offline) loses one line, nothing more.
        writeDeviceLog({ type: event.type, event: event.event, device: event.device, detail: event.detail ?? '' })
          .then(() => queryClient.invalidateQueries({ queryKey: queryKeys.deviceLog }))
          .catch(() => undefined);
      }),
  );
  return <SerialContext.Provider value={manager}>{children}</SerialContext.Provider>;
}

/** The app's serial manager (one without a serial API outside a provider, e.g. in unit tests). */
export function useSerialManager(): SerialManager {
  const manager = useContext(SerialContext);
  const [fallback] = useState(() => new SerialManager(null));
  return manager ?? fallback;
}

/** The granted ports, re-rendering on every change. */
export function useSerialPorts(manager: SerialManager): PortView[] {
  return useSyncExternalStore(
    (listener) => manager.subscribe(listener),
    () => manager.ports(),
    () => manager.ports(),
  );
}

/**
 * The last `count` values of a port, de-meaned for the live waveform, refreshed `fps` times a
 * second while `active`.
 */
export function useRecentValues(manager: SerialManager, portId: string | null, active: boolean, count = 800, fps = 15) {
  const [values, setValues] = useState<number[]>([]);
  useEffect(() => {
    if (!portId || !active) return;
    const timer = window.setInterval(() => {
      const recent = manager.recent(portId, count);
      const mean = recent.reduce((sum, v) => sum + v, 0) / Math.max(1, recent.length);
      setValues(recent.map((v) => v - mean));
    }, 1000 / fps);
    return () => window.clearInterval(timer);
  }, [manager, portId, active, count, fps]);
  return values;
}
