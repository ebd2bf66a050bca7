/**
 * A local Standard Webhooks receiver for the audit streaming tests and the bench: records every
 * request (raw bytes, headers, arrival time), verifies its signature, and answers as told
 * (`respond` decides each answer: a status with headers, `hang` to never answer, `reset` to cut the socket).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedEvent {
  id: number;
  hash: string | null;
  prevHash: string;
  action: string;
  result: string;
  time: string;
  createdAtMs: number;
  actor: { userId: string | null; email: string | null; name: string | null; label: string };
  ip: string | null;
  details: unknown;
  detailsText: string | null;
  instance: string;
  [key: string]: unknown;
}

export interface ReceivedRequest {
  at: number;
  raw: string;
  headers: http.IncomingHttpHeaders;
  verified: boolean;
  events: ReceivedEvent[];
  status: number | "hang" | "hold" | "reset";
}

/** `hold`: the events count as received, but no answer ever comes (a crash after the receiver took them). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | "hang" | "hold" | "reset";

export interface AuditReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Events of the requests answered 2xx, in arrival order. */
  accepted(): ReceivedEvent[];
  respond: (request: { index: number; events: ReceivedEvent[] }) => Answer;
  /** Verifies the requests from now on with this secret (one the portal generated in the admin panel). */
  setSecret(secret: string): void;
  close(): Promise<void>;
}

export async function startAuditReceiver(secret: string, port = 0): Promise<AuditReceiver> {
  const verifierOf = (text: string) =>
    text.startsWith("whsec_") ? new Webhook(text) : new Webhook(new TextEncoder().encode(text || "-"), { format: "raw" });
  let verifier = verifierOf(secret);
  const sockets = new Set<import("node:net").Socket>();
  const receiver: AuditReceiver = {
    url: "",
    requests: [],
    accepted: () =>
      receiver.requests.filter((r) => r.status === "hold" || (typeof r.status === "number" && r.status < 300)).flatMap((r) => r.events),
    respond: () => ({ status: 200 }),
    setSecret: (text) => (verifier = verifierOf(text)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      let verified = false;
      let events: ReceivedEvent[] = [];
      try {
        verifier.verify(raw, req.headers as Record<string, string>);
        verified = true;
      } catch {
        verified = false;
      }
      try {
        events = (JSON.parse(raw) as { data: { events: ReceivedEvent[] } }).data.events;
      } catch {
        events = [];
      }
      const answer = receiver.respond({ index: receiver.requests.length, events });
      const record: ReceivedRequest = {
        at: Date.now(),
        raw,
        headers: req.headers,
        verified,
        events,
        status: typeof answer === "string" ? answer : answer.status,
      };
      receiver.requests.push(record);
      if (answer === "hang" || answer === "hold") return;
      if (answer === "reset") return req.socket.destroy();
      res.writeHead(answer.status, { "content-type": "text/plain", ...answer.headers });
      res.end(answer.body ?? "ok");
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return receiver;
}

/** Ids in order of first arrival: a repeat (at least once) is dropped as a receiver would. */
export function firstArrivals(events: readonly { id: number }[]): number[] {
  const seen = new Set<number>();
  const ids: number[] = [];
  for (const event of events) {
    if (seen.has(event.id)) continue;
    seen.add(event.id);
    ids.push(event.id);
  }
  return ids;
}
