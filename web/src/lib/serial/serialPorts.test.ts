import { describe, expect, it, vi } from 'vitest';
import { FakePort, fakeSerial } from './fakeSerial';
import { SerialManager, type SerialEvent } from './serialPorts';

const tick = () => new Promise((done) => setTimeout(done, 0));

describe('SerialManager', () => {
  it('is honest about a browser without Web Serial', async () => {
    const manager = new SerialManager(null);
    expect(manager.supported).toBe(false);
    await manager.refresh();
    expect(manager.ports()).toEqual([]);
    expect(await manager.add()).toBeNull();
  });

  it('hands the samples of an open port to listeners and keeps the last ones for the waveform', async () => {
    const port = new FakePort();
    const manager = new SerialManager(fakeSerial([port]));
    await manager.refresh();
    const [view] = manager.ports();
    const got: number[] = [];
    manager.onSamples((id, samples) => {
      if (id === view!.id) got.push(...samples.map((s) => s.value));
    });
    await manager.connect(view!.id, 115200);
    port.emit('# rate=500\n10\n2');
    port.emit('0\n30\n');
    await vi.waitFor(() => expect(got).toEqual([10, 20, 30]));
    expect(manager.recent(view!.id, 2)).toEqual([20, 30]);
    await vi.waitFor(() => expect(manager.ports()[0]).toMatchObject({ samples: 3, rateHz: 500, state: 'connected' }));
    expect(manager.connectedPort()?.id).toBe(view!.id);
  });

  it('reports a device that went away as a lost connection', async () => {
    const port = new FakePort();
    const events: SerialEvent[] = [];
    const manager = new SerialManager(fakeSerial([port]), (event) => events.push(event));
    await manager.refresh();
    const id = manager.ports()[0]!.id;
    await manager.connect(id, 9600);
    await tick();

    port.unplug();

    await vi.waitFor(() => expect(manager.ports()[0]!.state).toBe('disconnected'));
    expect(events.map((e) => [e.event, e.type, e.detail ?? ''])).toEqual([
      ['serial_connected', 'success', '9600'],
      ['serial_disconnected', 'warning', 'lost'],
    ]);
    expect(manager.connectedPort()).toBeNull();
  });

  it('reports a port that cannot be opened', async () => {
    const port = new FakePort();
    port.open = () => Promise.reject(new Error('Failed to open serial port.'));
    const events: SerialEvent[] = [];
    const manager = new SerialManager(fakeSerial([port]), (event) => events.push(event));
    await manager.refresh();

    await manager.connect(manager.ports()[0]!.id, 9600);

    expect(manager.ports()[0]).toMatchObject({ state: 'error', error: 'Failed to open serial port.' });
    expect(events).toEqual([
      { event: 'serial_error', type: 'warning', device: 'USB 2341:0043', detail: 'Failed to open serial port.' },
    ]);
  });
});
