/**
 * A real rsyslog (Debian package `rsyslog`, TLS with `rsyslog-gnutls`) started on loopback with its
 * own configuration: imtcp (octet-counted frames) writing every message's raw text, one per line,
 * to a file the test reads. With `tls`, a throw-away CA and server certificate made with openssl.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../scripts/pg-cluster.mjs";

const RSYSLOGD = ["/usr/sbin/rsyslogd", "/sbin/rsyslogd"].find((candidate) => fs.existsSync(candidate)) ?? null;
const GTLS_DIRS = ["/usr/lib/x86_64-linux-gnu/rsyslog", "/usr/lib/aarch64-linux-gnu/rsyslog", "/usr/lib/rsyslog"];

/** Why rsyslog cannot run here (null when it can). */
export function rsyslogMissing(tls: boolean): string | null {
  if (!RSYSLOGD) return "rsyslogd não instalado (apt-get install -y rsyslog rsyslog-gnutls)";
  if (tls && !GTLS_DIRS.some((dir) => fs.existsSync(path.join(dir, "lmnsd_gtls.so"))))
    return "rsyslog sem TLS (apt-get install -y rsyslog-gnutls)";
  return null;
}

export interface Rsyslog {
  port: number;
  /** The CA file the portal must trust (AUDIT_SYSLOG_CA), with tls. */
  caFile: string | null;
  /** The raw messages written so far, one per line. */
  lines(): string[];
  stop(): Promise<void>;
  start(): Promise<void>;
  dir: string;
}

function makeCertificates(dir: string) {
  const run = (args: string[]) => execFileSync("openssl", args, { cwd: dir, stdio: "ignore" });
  run(["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=B1 Teste CA"]);
  run(["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost"]);
  fs.writeFileSync(path.join(dir, "ext.cnf"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
  run([
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "server.pem",
    "-days",
    "2",
    "-extfile",
    "ext.cnf",
  ]);
}

export async function startRsyslog(options: { tls: boolean }): Promise<Rsyslog> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-rsyslog-"));
  const port = await freePort();
  const out = path.join(dir, "out.log");
  if (options.tls) makeCertificates(dir);
  const tlsGlobal = options.tls
    ? ` defaultNetstreamDriverCAFile="${dir}/ca.pem" defaultNetstreamDriverCertFile="${dir}/server.pem" defaultNetstreamDriverKeyFile="${dir}/server.key"`
    : "";
  const tlsModule = options.tls ? ` streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon"` : "";
  fs.writeFileSync(
    path.join(dir, "rsyslog.conf"),
    [
      `global(workDirectory="${dir}" maxMessageSize="64k"${tlsGlobal})`,
      `module(load="imtcp"${tlsModule})`,
      `input(type="imtcp" port="${port}" address="127.0.0.1")`,
      `template(name="raw" type="string" string="%rawmsg%\\n")`,
      `action(type="omfile" file="${out}" template="raw")`,
    ].join("\n") + "\n",
  );
  let child: ChildProcess | null = null;
  let log = "";
  const rsyslog: Rsyslog = {
    port,
    dir,
    caFile: options.tls ? path.join(dir, "ca.pem") : null,
    lines: () => (fs.existsSync(out) ? fs.readFileSync(out, "utf8").split("\n").filter(Boolean) : []),
    async start() {
      child = spawn(RSYSLOGD!, ["-n", "-f", path.join(dir, "rsyslog.conf"), "-i", path.join(dir, "rsyslog.pid")], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      child.stdout!.on("data", (chunk) => (log += chunk));
      child.stderr!.on("data", (chunk) => (log += chunk));
      // Listening once a TCP connection is accepted.
      const deadline = Date.now() + 10_000;
      for (;;) {
        const up = await new Promise<boolean>((resolve) => {
          const socket = net.connect(port, "127.0.0.1");
          socket.once("connect", () => (socket.destroy(), resolve(true)));
          socket.once("error", () => resolve(false));
        });
        if (up) return;
        if (Date.now() > deadline) throw new Error(`rsyslog não abriu a porta ${port}:\n${log}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      const current = child;
      if (!current || current.exitCode !== null) return;
      const exited = new Promise((resolve) => current.once("exit", resolve));
      current.kill("SIGTERM");
      await exited;
      child = null;
    },
  };
  await rsyslog.start();
  return rsyslog;
}
