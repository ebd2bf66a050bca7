/**
 * A real SMTP server on loopback (smtp-server, as the digest tests use it) that records every
 * message whose content it received, and can be told how to answer: take it (250), refuse it (a
 * 4xx or 5xx reply), or drop the connection once the whole content arrived, before its reply
 * ("drop": the message counts as received, as a real server may have stored it; "lost": it does
 * not). A refused message is not counted either. `stop()` makes it vanish
 * (open connections cut, new ones refused) and `start()` brings it back on the same port.
 */
import { SMTPServer, type SMTPServerSession } from "smtp-server";
import { freePort } from "../../scripts/pg-cluster.mjs";

export interface ReceivedMail {
  to: string;
  raw: string;
}

/** What the sink does with a message once its content arrived. */
export type SinkAnswer = "accept" | "drop" | "lost" | "vanish" | { refuse: number };

export interface SmtpSink {
  url: string;
  port: number;
  /** Messages the server took or may have stored (accepted, or dropped after their content). */
  received: ReceivedMail[];
  /** Decides the answer to each message by its recipient (default: accept). */
  answer: (to: string) => SinkAnswer;
  /** Milliseconds to wait before answering each message. */
  delayMs: number;
  /** Cuts every open connection and stops listening (the server went away). */
  stop: () => Promise<void>;
  /** Listens again on the same port (nothing when already listening). */
  start: () => Promise<void>;
}

interface ConnectionLike {
  id: string;
  _socket: { destroy: () => void };
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const port = await freePort();
  let server: SMTPServer | undefined;
  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received: [],
    answer: () => "accept",
    delayMs: 0,
    stop: async () => {
      const current = server;
      if (!current) return;
      server = undefined;
      for (const connection of connectionsOf(current)) connection._socket.destroy();
      await new Promise<void>((resolve) => current.close(() => resolve()));
    },
    start: async () => {
      if (server) return;
      const started = create();
      server = started;
      await new Promise<void>((resolve) => started.listen(port, "127.0.0.1", resolve));
    },
  };
  /** smtp-server keeps its open connections in a Set; each one's socket is how a test cuts it. */
  const connectionsOf = (smtp: SMTPServer) => [...(smtp as unknown as { connections: Set<ConnectionLike> }).connections];
  const cut = (smtp: SMTPServer, session: SMTPServerSession) =>
    connectionsOf(smtp)
      .find((item) => item.id === session.id)
      ?._socket.destroy();
  const create = () => {
    const smtp: SMTPServer = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS", "AUTH"],
      logger: false,
      // No reverse DNS lookup of 127.0.0.1 per connection (it makes each message take tens of ms more).
      disableReverseLookup: true,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          const to = session.envelope.rcptTo[0]!.address.toLowerCase();
          const answer = sink.answer(to);
          if (answer === "accept" || answer === "drop" || answer === "vanish")
            sink.received.push({ to, raw: Buffer.concat(chunks).toString("utf8") });
          setTimeout(() => {
            if (answer === "accept") callback();
            else if (answer === "drop" || answer === "lost") cut(smtp, session);
            else if (answer === "vanish") void sink.stop();
            else callback(Object.assign(new Error("Recusado pelo teste"), { responseCode: answer.refuse }));
          }, sink.delayMs);
        });
      },
    });
    return smtp;
  };
  await sink.start();
  return sink;
}
