/**
 * Network faults for the SDK's and the CLI's tests: a port where nothing listens, and a
 * server that accepts requests but never answers ('hang') or sends the headers and part of
 * the body and then drops the connection ('die').
 */
import http from 'node:http';
import net from 'node:net';

/** A port of 127.0.0.1 where nothing listens (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface FaultServer {
  /** The API base URL (…/v1) of the server. */
  baseUrl: string;
  port: number;
  close(): Promise<void>;
}

export async function startFaultServer(fault: 'hang' | 'die'): Promise<FaultServer> {
  const server = http.createServer((_req, res) => {
    if (fault === 'hang') return;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
    res.write('{"model":"optimized","values":[[1,2,3');
    setTimeout(() => res.socket?.destroy(), 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
