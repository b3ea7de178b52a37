/**
 * Time limits on a connection, explicit and per phase:
 *
 * - between requests, a connection that sends nothing for the idle time-out is closed (Node's
 *   socket time-out, set by app.ts);
 * - while a request is in progress its socket has no idle time-out: a large response may compute
 *   for a while before its first byte, and that is the server's time, not the client's;
 * - once a response is going out, the send time-out (like a proxy's `send_timeout`) cuts a client
 *   that takes no byte for that long while the server has bytes waiting for it. Streamed bodies
 *   reach the socket in writes of at most SOCKET_WRITE_BYTES, each done when the client's kernel
 *   has taken it, so a client reading at least that much per time-out is never cut — the minimum
 *   transfer rate is SOCKET_WRITE_BYTES per send time-out (1 KB/s with the defaults).
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
  let waiting = 0;
  let since = Date.now();
  const timer = setInterval(
    () => {
      const socket = res.socket;
      if (!socket || socket.destroyed) return;
      // Bytes written to the socket and not yet taken by the client's side (the write in progress included).
      const pending = socket.writableLength;
      if (pending === 0 || pending !== waiting) {
        waiting = pending;
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
