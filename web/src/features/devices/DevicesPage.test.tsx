import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { FakePort, fakeSerial } from '../../lib/serial/fakeSerial';
import { json, makeUser, mockServer, renderApp, requestsTo } from '../../test/utils';

function withSerial(api: unknown) {
  Object.defineProperty(navigator, 'serial', { value: api, configurable: true });
}

function server(devices: unknown[] = [], log: unknown[] = []) {
  return mockServer({
    'GET /api/auth/me': () => json(200, makeUser()),
    'GET /api/health': () => json(503),
    'GET /api/devices': () => json(200, devices),
    'GET /api/devices/recordings': () => json(200, []),
    'GET /api/devices/log': () => json(200, log),
    'POST /api/devices/log': () => json(204),
  });
}

afterEach(() => {
  // Back to jsdom's navigator without Web Serial.
  Reflect.deleteProperty(navigator, 'serial');
});

describe('Devices page', () => {
  it('polls the registry, the inbox and the log as background requests (not activity for the session timeout)', async () => {
    const fetchMock = server();
    renderApp('/devices');
    expect(await screen.findByText('No network devices found')).toBeInTheDocument();
    for (const path of ['/api/devices', '/api/devices/recordings', '/api/devices/log']) {
      await waitFor(() => expect(requestsTo(fetchMock, 'GET', path).length, path).toBeGreaterThan(0));
      for (const request of requestsTo(fetchMock, 'GET', path)) {
        expect(request.headers.get('X-Cardio-Background'), path).toBe('1');
      }
    }
  });

  it('lists granted ports, connects, shows the stream and sends test data', async () => {
    const port = new FakePort();
    withSerial(fakeSerial([port]));
    const fetchMock = server();
    const user = userEvent.setup();
    renderApp('/devices');

    const item = await screen.findByTestId('serial-port');
    expect(within(item).getByText('USB 2341:0043')).toBeInTheDocument();
    expect(within(item).getByText('Arduino')).toBeInTheDocument();
    expect(within(item).getByText('Disconnected')).toBeInTheDocument();
    expect(screen.getByText('Connected: 0/1')).toBeInTheDocument();
    expect(within(item).getByRole('button', { name: /Send Test Data/ })).toBeDisabled();

    await user.selectOptions(within(item).getByLabelText('Baud rate'), '9600');
    await user.click(within(item).getByRole('button', { name: 'Connect' }));
    expect(await within(item).findByText('Connected')).toBeInTheDocument();
    expect(port.openedAt).toBe(9600);
    await act(async () => {
      port.emit('# rate=250 kind=ecg\n1\n2\nbad\n3');
      port.emit('\r\n4\r\n');
    });
    await waitFor(() => expect(within(item).getByTestId('serial-samples')).toHaveTextContent('4'));
    expect(within(item).getByText('250 Hz')).toBeInTheDocument();
    expect(within(item).getByText('ECG')).toBeInTheDocument();

    await user.click(within(item).getByRole('button', { name: /Send Test Data/ }));
    expect(await within(item).findByText('Sending test data to USB 2341:0043...')).toBeInTheDocument();
    await waitFor(() => expect(port.written).toEqual(['# cardio test\n']));

    await user.click(within(item).getByRole('button', { name: 'Disconnect' }));
    expect(await within(item).findByText('Disconnected')).toBeInTheDocument();
    await waitFor(() => expect(requestsTo(fetchMock, 'POST', '/api/devices/log')).toHaveLength(3));
    const events = await Promise.all(
      requestsTo(fetchMock, 'POST', '/api/devices/log').map(async (r) => ((await r.json()) as { event: string }).event),
    );
    expect(events).toEqual(['serial_connected', 'serial_test_data', 'serial_disconnected']);
  });

  it('says when no port was granted and adds one through the browser chooser', async () => {
    const port = new FakePort({ usbVendorId: 0x0403, usbProductId: 0x6001 });
    withSerial(fakeSerial([port], 0));
    server();
    const user = userEvent.setup();
    renderApp('/devices');

    expect(await screen.findByText('No serial devices found')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add device' }));
    expect(await screen.findByText('USB 0403:6001')).toBeInTheDocument();
    expect(screen.getByText('FTDI')).toBeInTheDocument();
  });

  it('shows network devices with their state and the log in the user language', async () => {
    withSerial(fakeSerial([]));
    server(
      [
        {
          id: 'd1',
          name: 'Bedside ECG',
          type: 'ECG',
          status: 'online',
          address: '10.0.0.7',
          lastSeenAt: '2026-01-01T10:00:00.000Z',
          createdAt: '2026-01-01T09:00:00.000Z',
        },
        {
          id: 'd2',
          name: 'Pulse clip',
          type: 'PPG',
          status: 'offline',
          address: null,
          lastSeenAt: null,
          createdAt: '2026-01-01T09:00:00.000Z',
        },
      ],
      [
        {
          time: '2026-01-01T10:00:01.000Z',
          type: 'success',
          event: 'recording_received',
          device: 'Bedside ECG',
          detail: 'Normal',
        },
        {
          time: '2026-01-01T09:59:00.000Z',
          type: 'warning',
          event: 'serial_disconnected',
          device: 'USB 2341:0043',
          detail: 'lost',
        },
        {
          time: '2026-01-01T09:58:00.000Z',
          type: 'warning',
          event: 'device_offline',
          device: 'Pulse clip',
          detail: '95',
        },
      ],
    );
    renderApp('/devices');

    const items = await screen.findAllByTestId('network-device');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Online')).toBeInTheDocument();
    expect(within(items[0]!).getByText(/ECG Device · 10\.0\.0\.7/)).toBeInTheDocument();
    expect(within(items[1]!).getByText('Offline')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Never connected')).toBeInTheDocument();
    expect(screen.getByText('Online: 1/2')).toBeInTheDocument();
    expect(await screen.findByText('Recording received from Bedside ECG: Normal')).toBeInTheDocument();
    expect(screen.getByText('Connection to USB 2341:0043 lost')).toBeInTheDocument();
    expect(screen.getByText('Connection to Pulse clip lost for 95 s')).toBeInTheDocument();
  });

  it('registers a device and shows its token once', async () => {
    withSerial(fakeSerial([]));
    const fetchMock = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/health': () => json(503),
      'GET /api/devices': () => json(200, []),
      'GET /api/devices/recordings': () => json(200, []),
      'GET /api/devices/log': () => json(200, []),
      'POST /api/devices': () =>
        json(201, {
          device: {
            id: 'd9',
            name: 'Cart',
            type: 'PCG',
            status: 'offline',
            address: null,
            lastSeenAt: null,
            createdAt: '2026-01-01T09:00:00.000Z',
          },
          token: 'cdv_secret-token',
        }),
    });
    const user = userEvent.setup();
    renderApp('/devices');

    await user.click((await screen.findAllByRole('button', { name: 'Register device' }))[0]!);
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText(/Name/), 'Cart');
    await user.selectOptions(within(dialog).getByLabelText('Type'), 'PCG');
    await user.click(within(dialog).getByRole('button', { name: 'Register' }));

    expect(await screen.findByTestId('device-token')).toHaveTextContent('cdv_secret-token');
    const [request] = requestsTo(fetchMock, 'POST', '/api/devices');
    expect(await request!.json()).toEqual({ name: 'Cart', type: 'PCG' });
    await user.click(screen.getByRole('button', { name: 'Done' }));
    expect(screen.queryByText('cdv_secret-token')).not.toBeInTheDocument();
  });

  it('configures a device: rename, a new token shown once, revoke after confirming', async () => {
    withSerial(fakeSerial([]));
    const device = {
      id: 'd1',
      name: 'Cart',
      type: 'ECG',
      status: 'offline',
      address: null,
      lastSeenAt: null,
      createdAt: '2026-01-01T09:00:00.000Z',
    };
    const fetchMock = mockServer({
      'GET /api/auth/me': () => json(200, makeUser()),
      'GET /api/health': () => json(503),
      'GET /api/devices': () => json(200, [device]),
      'GET /api/devices/recordings': () => json(200, []),
      'GET /api/devices/log': () => json(200, []),
      'PATCH /api/devices/d1': () => json(200, { ...device, name: 'Cart 2' }),
      'POST /api/devices/d1/token': () => json(200, { device, token: 'cdv_new-token' }),
      'DELETE /api/devices/d1': () => json(204),
    });
    const user = userEvent.setup();
    renderApp('/devices');

    await user.click(await screen.findByRole('button', { name: 'Configure' }));
    let dialog = await screen.findByRole('dialog', { name: 'Configure Cart' });
    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Cart 2');
    await user.click(within(dialog).getByRole('button', { name: 'Save name' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [rename] = requestsTo(fetchMock, 'PATCH', '/api/devices/d1');
    expect(await rename!.json()).toEqual({ name: 'Cart 2' });

    await user.click(screen.getByRole('button', { name: 'Configure' }));
    dialog = await screen.findByRole('dialog', { name: 'Configure Cart' });
    await user.click(within(dialog).getByRole('button', { name: 'New token' }));
    expect(await screen.findByTestId('device-token')).toHaveTextContent('cdv_new-token');
    await user.click(screen.getByRole('button', { name: 'Done' }));

    await user.click(screen.getByRole('button', { name: 'Configure' }));
    dialog = await screen.findByRole('dialog', { name: 'Configure Cart' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke device' }));
    expect(requestsTo(fetchMock, 'DELETE', '/api/devices/d1')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Yes, revoke' }));
    await waitFor(() => expect(requestsTo(fetchMock, 'DELETE', '/api/devices/d1')).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
