// Loopback ends for the hooks bridge's fail-open cases, shared by the unit tests, the Copilot suite
// and the bench: an address where nothing listens, and a listener that never answers.
import * as net from 'net';

const listen = async (server: net.Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
};

/** `127.0.0.1:<port>` where nothing listens (the port was free a moment ago). */
export async function unusedLoopbackAddress(): Promise<string> {
  const probe = net.createServer();
  const address = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return address;
}

/** A listener on 127.0.0.1 that reads every request and never answers; `close` drops its connections too. */
export async function hungListener(onData: (chunk: Buffer) => void = () => undefined): Promise<{ address: string; close(): void }> {
  const sockets: net.Socket[] = [];
  const server = net.createServer({ allowHalfOpen: true }, (socket) => {
    sockets.push(socket);
    socket.on('data', onData);
  });
  const address = await listen(server);
  return {
    address,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}
