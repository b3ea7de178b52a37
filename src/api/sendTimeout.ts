/**
 * Time limits on a connection, explicit and per phase:
 *
 * - between requests, a connection that sends nothing for the idle time-out is closed (Node's
 *   socket time-out, set by app.ts);
 * - while a request is in progress its socket has no idle time-out: a large response may compute
 *   for a while before its first byte, and that is the server's time, not the client's;
 * - once a response is going out, the send time-out (like nginx's `send_timeout`) cuts a client
 *   that takes no byte for that long while the server has bytes waiting for it. Streamed bodies
 *   reach the socket in writes of at most SOCKET_WRITE_BYTES; a write is done when the kernel has
 *   taken it into the connection's send buffer. The kernel takes more only once the client has
 *   read a good part of that buffer (Linux: about a third of it, up to ~1.3 MB with the default
 *   4 MB maximum), so what the time-out sees is the client reading in those steps: a client must
 *   read about that much per time-out — ~22 KB/s with the default 60 s on a connection whose
 *   buffer has grown to its maximum, far less on most. A client that reads nothing is cut.
 */
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Largest write of a streamed body to its socket (compute/pool.ts cuts chunks to it). */
export const SOCKET_WRITE_BYTES = 64 * 1024;

/** No idle time-out while the response is in progress; the idle time-out again once it has ended. */
export function holdIdleTimeout(socket: Socket, res: ServerResponse, idleMs: number): void {
  socket.setTimeout(0);
  res.once('close', () => {
    if (!socket.destroyed) socket.setTimeout(idleMs);
  });
}

/**
 * Cuts the response's connection when bytes have waited for the client for `timeoutMs` without
 * the client taking any; `onCut` is told first (to log which side ended the request).
 */
export function watchSend(res: ServerResponse, timeoutMs: number, onCut: () => void): void {
  let delivered = -1;
  let since = Date.now();
  const timer = setInterval(
    () => {
      const socket = res.socket;
      if (!socket || socket.destroyed) return;
      // Bytes whose writes have completed (the kernel took them): bytes written minus those still buffered or in flight.
      const done = socket.bytesWritten - socket.writableLength;
      if (socket.writableLength === 0 || done !== delivered) {
        delivered = done;
        since = Date.now();
        return;
      }
      if (Date.now() - since < timeoutMs) return;
      onCut();
      socket.destroy();
    },
    Math.max(10, Math.min(1000, timeoutMs / 4)),
  );
  timer.unref();
  res.once('close', () => clearInterval(timer));
}
