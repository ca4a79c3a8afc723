/**
 * A fake Web Serial API for unit tests: one port per `FakePort`, whose readable side streams the
 * text the test pushes and whose writable side records what the page wrote.
 */
import type { SerialApi, SerialPortInfoLike, SerialPortLike } from './serialPorts';

export class FakePort implements SerialPortLike {
  readable: ReadableStream<Uint8Array> | null = null;
  writable: WritableStream<Uint8Array> | null = null;
  written: string[] = [];
  openedAt: number | null = null;
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null;

  constructor(private readonly info: SerialPortInfoLike = { usbVendorId: 0x2341, usbProductId: 0x0043 }) {}

  getInfo(): SerialPortInfoLike {
    return this.info;
  }

  async open({ baudRate }: { baudRate: number }): Promise<void> {
    this.openedAt = baudRate;
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
    });
    this.writable = new WritableStream<Uint8Array>({
      write: (chunk) => {
        this.written.push(new TextDecoder().decode(chunk));
      },
    });
  }

  async close(): Promise<void> {
    this.readable = null;
    this.writable = null;
    this.openedAt = null;
  }

  /** The device goes away (unplugged): the stream ends and the port has no readable side. */
  unplug() {
    this.controller?.close();
    this.readable = null;
  }

  /** Streams text to the page as the device would. */
  emit(text: string) {
    this.controller?.enqueue(new TextEncoder().encode(text));
  }
}

export function fakeSerial(ports: FakePort[], granted = ports.length): SerialApi {
  const allowed = ports.slice(0, granted);
  return {
    getPorts: async () => [...allowed],
    requestPort: async () => {
      const next = ports.find((p) => !allowed.includes(p));
      if (!next) throw new DOMException('No port selected by the user.', 'NotFoundError');
      allowed.push(next);
      return next;
    },
  };
}
