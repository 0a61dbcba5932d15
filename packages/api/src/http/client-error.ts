import { STATUS_CODES, type Server } from "node:http";
import type { Duplex } from "node:stream";

type ClientError = Error & { code?: string; rawPacket?: Buffer };

function answerFor(error: ClientError): [number, string, string] {
  if (error.code === "HPE_HEADER_OVERFLOW") return [431, "rest_headers_too_large", "The request headers are too large."];
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") return [408, "rest_request_timeout", "The request took too long to arrive."];
  return [400, "rest_bad_request", "Malformed request."];
}

/**
 * Requests Node refuses before Express sees them (headers too large, a request
 * line it cannot parse, a request that never finished arriving) get the same
 * REST error shape as every other error instead of Node's bare status line.
 */
export function shapeClientErrors(server: Server): void {
  server.on("clientError", (error: ClientError, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    const [status, code, message] = answerFor(error);
    const body = JSON.stringify({ code, message, data: { status } });
    // A HEAD answer has the headers a GET would get and no body.
    const head = error.rawPacket?.subarray(0, 5).toString("latin1") === "HEAD ";
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? "" : body}`,
    );
  });
}
