/**
 * One [`SerialManager`] for the whole app, so that a port connected on the Devices page stays open
 * while the doctor goes through the screening steps and records from it.
 */
import { createContext, useContext, useState, useSyncExternalStore, type ReactNode } from 'react';
import { browserSerial, SerialManager, type PortView, type SerialEvent } from './serialPorts';

const SerialContext = createContext<SerialManager | null>(null);

export function SerialProvider({
  children,
  onEvent,
}: {
  children: ReactNode;
  /** Where the connection events go (the server's connection log). */
  onEvent?: (event: SerialEvent) => void;
}) {
  const [manager] = useState(() => new SerialManager(browserSerial(), (event) => onEvent?.(event)));
  return <SerialContext.Provider value={manager}>{children}</SerialContext.Provider>;
}

/** The app's serial manager (a manager without a serial API outside a provider, e.g. in tests). */
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
