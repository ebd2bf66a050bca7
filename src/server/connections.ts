import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import net from "node:net";
import type { Socket } from "node:net";

/** A connection idle this long when the server stops may be closed: a busy client sends sooner. */
const IDLE_CLOSE_GRACE_MS = 1_000;
const SWEEP_INTERVAL_MS = 100;
/** Where a response keeps its connection's state. */
const STATE = Symbol("b1.connectionState");

interface ConnectionState {
  /** Requests received and not yet answered (a pipelining client sends several at once). */
  waiting: { req: IncomingMessage; res: ServerResponse }[];
  /** The response being worked on, if any. */
  current: ServerResponse | null;
  idleSince: number;
}

/**
 * The server's connections, one request at a time each, and their end at shutdown.
 *
 * Node hands over every pipelined request of a connection at once; their handlers then interleave
 * on the one SQLite connection (a request could read before the write sent ahead of it, or a
 * statement could land inside another request's transaction). Here a connection's next request
 * starts only once the previous answer is done, as HTTP/1.1 answers them anyway.
 *
 * On shutdown, `http.Server#close` would destroy every idle keep-alive connection at once, racing
 * a request already on its way (the client sees a reset). Instead, from `answerWithClose()` on,
 * every answer says `Connection: close`, so a busy client's connection ends right after an answer;
 * once listening stops, only connections idle for IDLE_CLOSE_GRACE_MS are closed.
 */
export function createConnectionKeeper(listener: RequestListener) {
  const states = new Map<Socket, ConnectionState>();
  let closing = false;

  /** One function for every response (`this`), its connection's state kept on it: no closure per request. */
  function onAnswered(this: ServerResponse & { [STATE]?: ConnectionState }) {
    const state = this[STATE]!;
    state.current = null;
    state.idleSince = Date.now();
    const next = state.waiting.shift();
    // A connection that ended takes its unanswered requests with it.
    if (next && !next.req.socket.destroyed) start(state, next.req, next.res);
    else state.waiting.length = 0;
  }

  function start(state: ConnectionState, req: IncomingMessage, res: ServerResponse & { [STATE]?: ConnectionState }) {
    state.current = res;
    if (closing) res.setHeader("Connection", "close");
    res[STATE] = state;
    // A response closes once.
    res.on("close", onAnswered);
    listener(req, res);
  }

  function keep(socket: Socket) {
    states.set(socket, { waiting: [], current: null, idleSince: Date.now() });
    socket.once("close", () => states.delete(socket));
  }

  function answerWithClose() {
    closing = true;
    for (const state of states.values()) if (state.current && !state.current.headersSent) state.current.setHeader("Connection", "close");
  }

  return {
    listener(req: IncomingMessage, res: ServerResponse): void {
      const state = states.get(req.socket);
      if (!state) return listener(req, res);
      if (state.current) state.waiting.push({ req, res });
      else start(state, req, res);
    },

    /** Follows the connections `server` accepts. */
    attach(server: Server): void {
      server.on("connection", keep);
    },

    /** From now on every answer (the ones being worked on included, unless already started) closes its connection. */
    answerWithClose,

    /**
     * Stops accepting connections and resolves once every open one has ended: each closes after
     * its answer, or once idle for IDLE_CLOSE_GRACE_MS.
     */
    stop(server: Server): Promise<void> {
      answerWithClose();
      const sweep = setInterval(() => {
        const now = Date.now();
        for (const [socket, state] of states) {
          if (!state.current && state.waiting.length === 0 && now - state.idleSince >= IDLE_CLOSE_GRACE_MS) socket.destroy();
        }
      }, SWEEP_INTERVAL_MS);
      // net.Server's close stops listening only; http.Server's would also destroy idle connections now.
      return new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve())).finally(() => clearInterval(sweep));
    },
  };
}
