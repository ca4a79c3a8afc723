/**
 * USB serial sensors through the Web Serial API (Chromium-based browsers), behind a small interface.
 *
 * The page never talks to `navigator.serial` directly: it goes through a [`SerialManager`], which
 * takes a [`SerialApi`] (by default `navigator.serial`, or null where the browser has none). Tests
 * replace `navigator.serial` with a fake that streams a recording, since headless Chromium cannot
 * reach a real port.
 *
 * The manager keeps the granted ports, opens and closes them at a chosen baud rate, reads each open
 * port through the line protocol ([`LineParser`]) into a ring buffer for the live waveform, hands
 * the samples to whoever records, writes a test line, and reports what happened (connected,
 * disconnected, errors) to the caller's event callback, which feeds the connection log.
 */
import { LineParser, type Sample, type SignalKind } from './lineProtocol';

/** What the browser tells about a port (Web Serial exposes USB ids, not paths or serial numbers). */
export interface SerialPortInfoLike {
  usbVendorId?: number;
  usbProductId?: number;
  bluetoothServiceClassId?: number | string;
}

/** The part of a Web Serial `SerialPort` the manager uses. */
export interface SerialPortLike {
  getInfo(): SerialPortInfoLike;
  open(options: { baudRate: number }): Promise<void>;
  close(): Promise<void>;
  readonly readable: ReadableStream<Uint8Array> | null;
  readonly writable: WritableStream<Uint8Array> | null;
}

/** The part of `navigator.serial` the manager uses. */
export interface SerialApi {
  getPorts(): Promise<SerialPortLike[]>;
  requestPort(options?: object): Promise<SerialPortLike>;
  addEventListener?(type: 'connect' | 'disconnect', listener: (event: Event) => void): void;
  removeEventListener?(type: 'connect' | 'disconnect', listener: (event: Event) => void): void;
}

/** The browser's serial API, or null where it has none (Firefox, Safari, plain HTTP). */
export function browserSerial(): SerialApi | null {
  if (typeof navigator === 'undefined') return null;
  const serial = (navigator as Navigator & { serial?: SerialApi }).serial;
  return serial ?? null;
}

/** Baud rates offered; 115200 is what most microcontroller sketches use. */
export const BAUD_RATES = [9600, 19200, 38400, 57600, 115200, 230400, 460800, 921600] as const;
export const DEFAULT_BAUD_RATE = 115200;
/** The line "send test data" writes (a comment in our own protocol, harmless to a device). */
export const TEST_LINE = '# cardio test\n';
/** Samples kept per port for the live waveform. */
export const RING_SIZE = 4096;
/** How often the figures of a streaming port are shown anew, ms. */
export const FIGURES_MS = 200;

export type PortState = 'disconnected' | 'connecting' | 'connected' | 'error';

/** A granted port as the page shows it. */
export interface PortView {
  id: string;
  /** "USB 2341:0043" (vendor:product) or a fallback the page translates. */
  label: string;
  vendorId: number | null;
  productId: number | null;
  state: PortState;
  baudRate: number;
  samples: number;
  malformed: number;
  rateHz: number | null;
  kind: SignalKind | null;
  error: string | null;
}

/** What the manager reports for the connection log. */
export interface SerialEvent {
  event: 'serial_connected' | 'serial_disconnected' | 'serial_error' | 'serial_test_data';
  type: 'success' | 'info' | 'warning';
  device: string;
  detail?: string;
}

type SampleListener = (portId: string, samples: readonly Sample[]) => void;

interface Entry {
  port: SerialPortLike;
  view: PortView;
  parser: LineParser;
  ring: Float64Array;
  ringAt: number;
  ringCount: number;
  reader: ReadableStreamDefaultReader<Uint8Array> | null;
  /** A pending update of the figures (samples, malformed lines). */
  flushTimer: ReturnType<typeof setTimeout> | null;
  /** The read loop of an open port: it has released the stream when this settles. */
  loop: Promise<void> | null;
  closing: boolean;
}

function hex(n: number): string {
  return n.toString(16).padStart(4, '0');
}

function portLabel(info: SerialPortInfoLike): string {
  if (info.usbVendorId !== undefined && info.usbProductId !== undefined) {
    return `USB ${hex(info.usbVendorId)}:${hex(info.usbProductId)}`;
  }
  if (info.bluetoothServiceClassId !== undefined) return `Bluetooth ${String(info.bluetoothServiceClassId)}`;
  return '';
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Keeps the granted ports and the open connections; see the module documentation. */
export class SerialManager {
  private entries: Entry[] = [];
  private ids = new WeakMap<SerialPortLike, string>();
  private nextId = 1;
  private listeners = new Set<() => void>();
  private sampleListeners = new Set<SampleListener>();
  private snapshot: PortView[] = [];

  constructor(
    readonly api: SerialApi | null,
    private readonly onEvent: (event: SerialEvent) => void = () => undefined,
  ) {
    // A granted device plugged in or out: the list follows without a click on Refresh.
    const follow = () => void this.refresh().catch(() => undefined);
    api?.addEventListener?.('connect', follow);
    api?.addEventListener?.('disconnect', follow);
  }

  /** Whether this browser can reach serial ports at all. */
  get supported(): boolean {
    return this.api !== null;
  }

  /** The ports as last seen (a new array after every change, for React). */
  ports(): PortView[] {
    return this.snapshot;
  }

  /** Calls `listener` after every change of a port's state or figures. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` with every run of samples read from any open port. */
  onSamples(listener: SampleListener): () => void {
    this.sampleListeners.add(listener);
    return () => this.sampleListeners.delete(listener);
  }

  /** The last `count` values read from a port, oldest first. */
  recent(portId: string, count: number): number[] {
    const entry = this.entries.find((e) => e.view.id === portId);
    if (!entry) return [];
    const n = Math.min(count, entry.ringCount);
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) {
      out[i] = entry.ring[(entry.ringAt - n + i + RING_SIZE) % RING_SIZE] ?? 0;
    }
    return out;
  }

  /** Re-reads the ports the browser has granted this site. */
  async refresh(): Promise<void> {
    if (!this.api) return;
    const granted = await this.api.getPorts();
    const kept = this.entries.filter((e) => granted.includes(e.port) || e.view.state !== 'disconnected');
    for (const port of granted) {
      if (kept.some((e) => e.port === port)) continue;
      kept.push(this.entryFor(port));
    }
    this.entries = kept;
    this.changed();
  }

  /** Asks the browser for a port (its chooser); resolves to the port's id, or null when cancelled. */
  async add(): Promise<string | null> {
    if (!this.api) return null;
    let port: SerialPortLike;
    try {
      port = await this.api.requestPort();
    } catch {
      // The user closed the chooser without picking a port.
      return null;
    }
    await this.refresh();
    if (!this.entries.some((e) => e.port === port)) {
      this.entries.push(this.entryFor(port));
      this.changed();
    }
    return this.ids.get(port) ?? null;
  }

  /** Opens a port at `baudRate` and starts reading it. */
  async connect(portId: string, baudRate: number): Promise<void> {
    const entry = this.entries.find((e) => e.view.id === portId);
    if (!entry || entry.view.state === 'connected' || entry.view.state === 'connecting') return;
    entry.parser = new LineParser();
    entry.ringAt = 0;
    entry.ringCount = 0;
    this.update(entry, { state: 'connecting', baudRate, error: null, samples: 0, malformed: 0 });
    try {
      await entry.port.open({ baudRate });
    } catch (error) {
      this.update(entry, { state: 'error', error: message(error) });
      this.onEvent({ event: 'serial_error', type: 'warning', device: entry.view.label, detail: message(error) });
      return;
    }
    entry.closing = false;
    this.update(entry, { state: 'connected' });
    this.onEvent({ event: 'serial_connected', type: 'success', device: entry.view.label, detail: String(baudRate) });
    entry.loop = this.readLoop(entry);
  }

  /** Stops reading and closes a port. */
  async disconnect(portId: string): Promise<void> {
    const entry = this.entries.find((e) => e.view.id === portId);
    if (!entry || entry.view.state !== 'connected') return;
    entry.closing = true;
    try {
      await entry.reader?.cancel();
    } catch {
      // Already cancelled by a lost device.
    }
    // A port closes only once its stream is unlocked: wait for the read loop to let go.
    await entry.loop;
    entry.loop = null;
    try {
      await entry.port.close();
    } catch {
      // Closing a port whose device is gone fails; it is closed all the same.
    }
    this.update(entry, { state: 'disconnected' });
    this.onEvent({ event: 'serial_disconnected', type: 'info', device: entry.view.label });
  }

  /** Writes the test line to an open port. */
  async sendTest(portId: string): Promise<void> {
    const entry = this.entries.find((e) => e.view.id === portId);
    const writable = entry?.port.writable;
    if (!entry || entry.view.state !== 'connected' || !writable) return;
    const writer = writable.getWriter();
    try {
      await writer.write(new TextEncoder().encode(TEST_LINE));
      this.onEvent({ event: 'serial_test_data', type: 'info', device: entry.view.label });
    } catch (error) {
      this.onEvent({ event: 'serial_error', type: 'warning', device: entry.view.label, detail: message(error) });
      throw error;
    } finally {
      writer.releaseLock();
    }
  }

  /** The open port whose samples a recording takes: the given one, else the first connected. */
  connectedPort(portId?: string | null): PortView | null {
    const connected = this.snapshot.filter((p) => p.state === 'connected');
    return connected.find((p) => p.id === portId) ?? connected[0] ?? null;
  }

  private entryFor(port: SerialPortLike): Entry {
    let id = this.ids.get(port);
    if (!id) {
      id = `port-${this.nextId++}`;
      this.ids.set(port, id);
    }
    const info = port.getInfo();
    return {
      port,
      parser: new LineParser(),
      ring: new Float64Array(RING_SIZE),
      ringAt: 0,
      ringCount: 0,
      reader: null,
      flushTimer: null,
      loop: null,
      closing: false,
      view: {
        id,
        label: portLabel(info),
        vendorId: info.usbVendorId ?? null,
        productId: info.usbProductId ?? null,
        state: 'disconnected',
        baudRate: DEFAULT_BAUD_RATE,
        samples: 0,
        malformed: 0,
        rateHz: null,
        kind: null,
        error: null,
      },
    };
  }

  private async readLoop(entry: Entry) {
    const decoder = new TextDecoder();
    while (entry.port.readable && !entry.closing) {
      const reader = entry.port.readable.getReader();
      entry.reader = reader;
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          if (value) this.take(entry, decoder.decode(value, { stream: true }));
        }
      } catch (error) {
        if (!entry.closing) {
          // A lost cable or a framing error: say so; the loop retries while the port stays readable.
          this.update(entry, { error: message(error) });
          this.onEvent({ event: 'serial_error', type: 'warning', device: entry.view.label, detail: message(error) });
        }
      } finally {
        reader.releaseLock();
        entry.reader = null;
      }
      if (entry.closing) break;
      if (!entry.port.readable) break;
    }
    if (!entry.closing && entry.view.state === 'connected') {
      // The stream ended without a disconnect: the device went away.
      this.take(entry, '', true);
      try {
        await entry.port.close();
      } catch {
        // Already closed.
      }
      this.update(entry, { state: 'disconnected' });
      this.onEvent({ event: 'serial_disconnected', type: 'warning', device: entry.view.label, detail: 'lost' });
    }
  }

  private take(entry: Entry, text: string, last = false) {
    const samples = last ? entry.parser.finish() : entry.parser.push(text);
    for (const sample of samples) {
      entry.ring[entry.ringAt] = sample.value;
      entry.ringAt = (entry.ringAt + 1) % RING_SIZE;
      entry.ringCount = Math.min(RING_SIZE, entry.ringCount + 1);
    }
    if (samples.length > 0) {
      for (const listener of this.sampleListeners) listener(entry.view.id, samples);
    }
    const p = entry.parser;
    const v = entry.view;
    if (p.rateHz !== v.rateHz || p.kind !== v.kind) {
      this.flushFigures(entry);
    } else if (p.samples !== v.samples || p.malformed !== v.malformed) {
      // A port at 115200 baud delivers hundreds of chunks a second: the page re-renders its counts
      // at most every FIGURES_MS, and once more after the last chunk.
      if (entry.flushTimer === null) {
        entry.flushTimer = setTimeout(() => this.flushFigures(entry), FIGURES_MS);
      }
    }
  }

  private flushFigures(entry: Entry) {
    if (entry.flushTimer !== null) clearTimeout(entry.flushTimer);
    entry.flushTimer = null;
    const p = entry.parser;
    this.update(entry, { samples: p.samples, malformed: p.malformed, rateHz: p.rateHz, kind: p.kind });
  }

  private update(entry: Entry, patch: Partial<PortView>) {
    entry.view = { ...entry.view, ...patch };
    this.changed();
  }

  private changed() {
    this.snapshot = this.entries.map((e) => e.view);
    for (const listener of this.listeners) listener();
  }
}
