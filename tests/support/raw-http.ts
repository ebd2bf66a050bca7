import fs from "node:fs";
import net from "node:net";

export interface RawAnswer {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: string;
  /** Bytes of the request body written before the answer came (or the socket closed). */
  sent: number;
}

function parseAnswer(text: string, sent: number): RawAnswer | null {
  const split = text.indexOf("\r\n\r\n");
  if (split === -1) return null;
  const [statusLine, ...lines] = text.slice(0, split).split("\r\n");
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers["transfer-encoding"] === "chunked") {
    if (!body.endsWith("0\r\n\r\n")) return null;
    body = body.replace(/(?:^|\r\n)[0-9a-f]+\r\n/gi, "").replace(/\r\n$/, "");
  }
  if (headers["content-length"] !== undefined && Buffer.byteLength(body) < Number(headers["content-length"])) return null;
  return { status: Number(statusLine!.split(" ")[1]), headers, body, sent };
}

/**
 * POSTs `totalBytes` of filler as a chunked body (no Content-Length) on a raw socket, stopping as
 * soon as the server answers, and resolves with that answer. What an attacker's flood looks like.
 */
export function postChunked(url: string, path: string, totalBytes: number, headers: Record<string, string> = {}): Promise<RawAnswer> {
  const { hostname, port, host } = new URL(url);
  const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, "a"), Buffer.from("\r\n")]);
  const head = Object.entries({ host, "content-type": "application/json", "transfer-encoding": "chunked", ...headers })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return new Promise((resolve, reject) => {
    let sent = 0;
    let received = "";
    let answer: RawAnswer | null = null;
    const socket = net.connect(Number(port), hostname);
    const finish = () => {
      socket.destroy();
      if (answer) resolve(answer);
      else reject(new Error(`sem resposta após ${sent} bytes: ${JSON.stringify(received)}`));
    };
    socket.setEncoding("utf8");
    socket.on("data", (part: string) => {
      received += part;
      answer ??= parseAnswer(received, sent);
      if (answer) finish();
    });
    socket.on("error", finish);
    socket.on("close", finish);
    socket.on("connect", () => {
      socket.write(`POST ${path} HTTP/1.1\r\n${head}\r\n`);
      const pump = () => {
        while (!answer && !socket.destroyed && sent < totalBytes) {
          sent += 0x10000;
          if (!socket.write(chunk)) return void socket.once("drain", pump);
        }
        if (!answer && !socket.destroyed) socket.write("0\r\n\r\n");
      };
      pump();
    });
  });
}

/** Sends raw bytes on a fresh TCP connection and returns everything the server wrote back. */
export function rawRequest(url: string, text: string, timeoutMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (part: string) => (received += part));
    socket.on("end", () => resolve(received));
    socket.on("close", () => resolve(received));
    socket.on("error", (error) => (received ? resolve(received) : reject(error)));
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve(received);
    });
  });
}

/** Resident memory of a process in bytes (Linux /proc). */
export function residentBytes(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = /VmRSS:\s+(\d+) kB/.exec(status);
  if (!kb) throw new Error(`VmRSS ausente para o processo ${pid}`);
  return Number(kb[1]) * 1024;
}

/** Length of the first whole response in `bytes` (headers and body), or null while it is incomplete. */
function responseLength(bytes: Buffer): number | null {
  const split = bytes.indexOf("\r\n\r\n");
  if (split === -1) return null;
  const head = bytes.subarray(0, split).toString("latin1");
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) return bytes.length >= split + 4 + Number(length[1]) ? split + 4 + Number(length[1]) : null;
  if (!/\r\ntransfer-encoding:\s*chunked/i.test(head)) return split + 4;
  const end = bytes.indexOf("\r\n0\r\n\r\n", split + 4 - 2);
  return end === -1 ? null : end + 7;
}

/**
 * Writes every request in ONE socket write (HTTP pipelining) and resolves with the answers in the
 * order they came back, once `requests.length` have arrived (or the socket ends or times out).
 */
export function pipelined(url: string, requests: string[], timeoutMs = 15_000): Promise<RawAnswer[]> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const answers: RawAnswer[] = [];
    let pending = Buffer.alloc(0);
    const socket = net.connect(Number(port), hostname, () => socket.write(requests.join("")));
    const done = () => {
      socket.destroy();
      resolve(answers);
    };
    socket.on("data", (part: Buffer) => {
      pending = Buffer.concat([pending, part]);
      for (let length = responseLength(pending); length !== null; length = responseLength(pending)) {
        answers.push(parseAnswer(pending.subarray(0, length).toString("utf8"), 0)!);
        pending = pending.subarray(length);
        if (answers.length === requests.length) return done();
      }
    });
    socket.on("end", done);
    socket.on("close", done);
    socket.on("error", (error) => (answers.length ? done() : reject(error)));
    socket.setTimeout(timeoutMs, done);
  });
}

/** One HTTP/1.1 request as bytes on the wire. */
export function requestText(method: string, path: string, host: string, headers: Record<string, string> = {}, body?: string): string {
  const all = { host, ...headers, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) };
  const head = Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
  return `${method} ${path} HTTP/1.1\r\n${head}\r\n${body ?? ""}`;
}

export interface KeepAliveRun {
  /** Answers received, and how many of them asked to close the connection. */
  answers: number;
  closeAnswers: number;
  /** Requests written that got no answer: the connection was reset or closed under them. */
  failures: string[];
}

/**
 * One keep-alive connection sending `request` again as soon as each answer arrives, as a busy
 * client or a balancer's pooled connection does, until the server answers `Connection: close`,
 * closes the idle connection, or `stop()` says so. Never reconnects.
 */
export function keepAliveLoop(url: string, request: string, stop: () => boolean): Promise<KeepAliveRun> {
  const { hostname, port } = new URL(url);
  const run: KeepAliveRun = { answers: 0, closeAnswers: 0, failures: [] };
  return new Promise((resolve) => {
    let pending = Buffer.alloc(0);
    let waiting = false;
    let finished = false;
    const socket = net.connect(Number(port), hostname);
    const finish = (failure?: string) => {
      if (finished) return;
      finished = true;
      if (failure && waiting) run.failures.push(failure);
      socket.destroy();
      resolve(run);
    };
    const send = () => {
      if (stop()) return finish();
      waiting = true;
      socket.write(request);
    };
    socket.on("connect", send);
    socket.on("data", (part: Buffer) => {
      pending = Buffer.concat([pending, part]);
      const length = responseLength(pending);
      if (length === null) return;
      const head = pending.subarray(0, length).toString("latin1");
      pending = pending.subarray(length);
      waiting = false;
      run.answers++;
      if (/\r\nconnection:\s*close/i.test(head)) {
        run.closeAnswers++;
        return finish();
      }
      send();
    });
    socket.on("error", (error: NodeJS.ErrnoException) => finish(error.code ?? error.message));
    socket.on("end", () => finish("conexão fechada sem resposta"));
    socket.on("close", () => finish("conexão fechada sem resposta"));
  });
}
