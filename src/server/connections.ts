import type { IncomingMessage, RequestListener, Server, ServerResponse } from "node:http";
import net from "node:net";
import type { Socket } from "node:net";

/**
 * A connection idle this long, counted from the shutdown signal at the earliest, may be closed once
 * the server stops listening: a client that kept a connection open gets this long after the signal
 * to send one more request (answered with `Connection: close`) before the connection ends under it.
 */
const IDLE_CLOSE_GRACE_MS = 1_000;
const SWEEP_INTERVAL_MS = 100;
/**
 * The listener closes only once no connection has been accepted for this long: closing it resets
 * every connection still in the kernel's accept queue, handshake done and request maybe sent.
 */
const ACCEPT_QUIET_MS = 100;
/** A client that keeps connecting does not hold the listener open past this. */
const ACCEPT_QUIET_LIMIT_MS = 3_000;
/** Where a response keeps its connection's state. */
const STATE = Symbol("b1.connectionState");

interface ConnectionState {
  /** Requests received and not yet answered (a pipelining client sends several at once). */
  waiting: { req: IncomingMessage; res: ServerResponse }[];
  /** The response being worked on, if any. */
  current: ServerResponse | null;
  idleSince: number;
  /** `socket.bytesRead` when the connection last fell idle: more since means a request is arriving. */
  bytesAtIdle: number;
  /** Our FIN was sent (closeIdle). */
  ending: boolean;
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
 * a request already on its way (the client sees a reset). Instead, from `answerWithClose()` on (the
 * signal, through SHUTDOWN_DRAIN_MS), every answer says `Connection: close`, so a busy client's
 * connection ends right after an answer; `stop()` then lets answers keep their connections until
 * the listener has closed (see below), and says `Connection: close` again after it. Once listening
 * stops, only connections idle for IDLE_CLOSE_GRACE_MS are closed, with a FIN and nothing partial
 * (closeIdle) — idle meaning no byte of a next request has arrived (a request half-sent is answered).
 *
 * Closing the listening socket resets the connections the kernel accepted and Node did not yet take
 * (a burst arriving as SIGTERM does, or a process busy for a moment): listening stops only after a
 * pass of the event loop took no new connection for ACCEPT_QUIET_MS.
 */
export function createConnectionKeeper(listener: RequestListener) {
  const states = new Map<Socket, ConnectionState>();
  let closing = false;
  /** When answerWithClose() was first called (the shutdown signal). */
  let closingSince = 0;
  /** Connections accepted so far: the listener closes once a quiet spell adds none. */
  let accepted = 0;

  /**
   * Closes an idle connection the way a client can retry from: a FIN between two answers (nothing partial
   * was sent), the reading side left open so a request already on its way is read, not answered by the
   * kernel with a reset; the client sees the connection end before any answer (Node's agents and undici
   * report it on a reused connection, which is safe to retry) and the socket goes once the client closes,
   * or after IDLE_CLOSE_GRACE_MS.
   */
  function closeIdle(socket: Socket, state: ConnectionState) {
    if (state.ending) return;
    state.ending = true;
    socket.end();
    setTimeout(() => socket.destroy(), IDLE_CLOSE_GRACE_MS).unref();
  }

  /** One function for every response (`this`), its connection's state kept on it: no closure per request. */
  function onAnswered(this: ServerResponse & { [STATE]?: ConnectionState }) {
    const state = this[STATE]!;
    state.current = null;
    state.idleSince = Date.now();
    state.bytesAtIdle = this.req?.socket?.bytesRead ?? state.bytesAtIdle;
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
    accepted++;
    states.set(socket, { waiting: [], current: null, idleSince: Date.now(), bytesAtIdle: 0, ending: false });
    socket.once("close", () => states.delete(socket));
  }

  function answerWithClose() {
    if (!closing) closingSince = Date.now();
    closing = true;
    for (const state of states.values()) if (state.current && !state.current.headersSent) state.current.setHeader("Connection", "close");
  }

  /**
   * Resolves once ACCEPT_QUIET_MS passed without a new connection, checked after an event-loop pass
   * that polled the listening socket (`setImmediate` runs after the poll phase; a timer, after a
   * loop blocked for a while, may fire before it), or after ACCEPT_QUIET_LIMIT_MS.
   */
  function acceptQueueEmptied(): Promise<void> {
    const limit = Date.now() + ACCEPT_QUIET_LIMIT_MS;
    return new Promise((resolve) => {
      const wait = () => {
        const seen = accepted;
        setTimeout(() => setImmediate(() => (accepted === seen || Date.now() >= limit ? resolve() : wait())), ACCEPT_QUIET_MS);
      };
      wait();
    });
  }

  return {
    listener(req: IncomingMessage, res: ServerResponse): void {
      const state = states.get(req.socket);
      if (!state) return listener(req, res);
      // A request that arrived after our FIN is not run: its client sees the connection end unanswered
      // and may send it again elsewhere, so nothing it asks may happen here.
      if (state.ending) return;
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
     * Stops accepting connections (once the accept queue is empty) and resolves once every open one
     * has ended: each closes after its answer, or once idle for IDLE_CLOSE_GRACE_MS since the signal.
     */
    async stop(server: Server): Promise<void> {
      // Until the listener is closed, answers keep their connections: a `Connection: close` would send
      // the client straight back to the listener with a new connection, and closing the listener resets
      // whatever the kernel queued meanwhile. With no client reconnecting, the accept queue falls quiet,
      // and the listener closes with nothing in it; a client connecting afterwards is refused (reached nothing).
      closing = false;
      await acceptQueueEmptied();
      answerWithClose();
      const sweep = setInterval(() => {
        const now = Date.now();
        for (const [socket, state] of states) {
          // A connection whose next request has begun to arrive is not idle: it gets its answer (with
          // `Connection: close`), bounded by the server's header and request timeouts like any request.
          const arriving = socket.bytesRead > state.bytesAtIdle;
          if (
            !state.current &&
            state.waiting.length === 0 &&
            !arriving &&
            now - Math.max(state.idleSince, closingSince) >= IDLE_CLOSE_GRACE_MS
          )
            closeIdle(socket, state);
        }
      }, SWEEP_INTERVAL_MS);
      // net.Server's close stops listening only; http.Server's would also destroy idle connections now.
      return new Promise<void>((resolve) => net.Server.prototype.close.call(server, () => resolve())).finally(() => clearInterval(sweep));
    },
  };
}
