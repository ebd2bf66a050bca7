import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/lib/server/config/config";

const SECRET = "whsec_" + Buffer.alloc(32, 7).toString("base64");

describe("audit streaming settings (issue 45)", () => {
  it("nothing configured: no destination", () => {
    const { webhook, syslog, leaseMs } = readConfig({}).auditStream;
    expect(webhook).toBeNull();
    expect(syslog).toBeNull();
    expect(leaseMs).toBe(6_000);
  });

  it("reads a webhook and a syslog destination", () => {
    const stream = readConfig({
      AUDIT_WEBHOOK_URL: "https://coletor.example/b1",
      AUDIT_WEBHOOK_SECRET: SECRET,
      AUDIT_SYSLOG_URL: "tcp://siem.example:514",
    }).auditStream;
    expect(stream.webhook!.secret).toEqual(new Uint8Array(Buffer.alloc(32, 7)));
    expect(stream.webhook!.batchSize).toBe(100);
    expect(stream.syslog).toMatchObject({ host: "siem.example", port: 514, tls: false, ca: null });
    // A plain text secret of 32 bytes or more is used as it is.
    expect(
      readConfig({ AUDIT_WEBHOOK_URL: "http://x.example", AUDIT_WEBHOOK_SECRET: "a".repeat(32) }).auditStream.webhook!.secret.length,
    ).toBe(32);
  });

  it.each([
    [{ AUDIT_WEBHOOK_URL: "ftp://coletor.example", AUDIT_WEBHOOK_SECRET: SECRET }, /AUDIT_WEBHOOK_URL deve ser um endereço http/],
    [{ AUDIT_WEBHOOK_URL: "javascript:alert(1)", AUDIT_WEBHOOK_SECRET: SECRET }, /AUDIT_WEBHOOK_URL/],
    [{ AUDIT_WEBHOOK_URL: "https://coletor\u202e.example", AUDIT_WEBHOOK_SECRET: SECRET }, /AUDIT_WEBHOOK_URL/],
    [{ AUDIT_WEBHOOK_URL: "https://coletor.example" }, /AUDIT_WEBHOOK_SECRET deve ter pelo menos 32 bytes/],
    [{ AUDIT_WEBHOOK_URL: "https://coletor.example", AUDIT_WEBHOOK_SECRET: "a".repeat(31) }, /pelo menos 32 bytes/],
    [{ AUDIT_WEBHOOK_URL: "https://coletor.example", AUDIT_WEBHOOK_SECRET: "whsec_" + Buffer.alloc(31).toString("base64") }, /32 bytes/],
    [{ AUDIT_SYSLOG_URL: "udp://siem.example:514" }, /AUDIT_SYSLOG_URL deve ser tcp:\/\/servidor:porta ou tls:\/\//],
    [{ AUDIT_SYSLOG_URL: "tcp://siem.example" }, /AUDIT_SYSLOG_URL/],
    [{ AUDIT_SYSLOG_URL: "tls://siem.example:6514", AUDIT_SYSLOG_CA: "/nao/existe/ca.pem" }, /AUDIT_SYSLOG_CA: não foi possível ler/],
    [{ AUDIT_STREAM_LEASE_MS: "99999999999999999999" }, /AUDIT_STREAM_LEASE_MS deve ser um número inteiro/],
    [{ AUDIT_WEBHOOK_URL: "https://c.example", AUDIT_WEBHOOK_SECRET: SECRET, AUDIT_WEBHOOK_BATCH: "0" }, /AUDIT_WEBHOOK_BATCH/],
  ])("refuses %j in Portuguese", (env: Record<string, string>, message) => {
    expect(() => readConfig(env)).toThrow(message);
  });

  it("accepts a webhook timeout longer than the lease (the lease is renewed during a send)", () => {
    const stream = readConfig({
      AUDIT_WEBHOOK_URL: "https://c.example",
      AUDIT_WEBHOOK_SECRET: SECRET,
      AUDIT_WEBHOOK_TIMEOUT_MS: "20000",
      AUDIT_STREAM_LEASE_MS: "6000",
    }).auditStream;
    expect([stream.webhook!.timeoutMs, stream.leaseMs]).toEqual([20_000, 6000]);
  });

  it("refuses a CA file that is not a PEM certificate, and reads one that is", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "b1-ca-"));
    fs.writeFileSync(path.join(dir, "lixo.pem"), "não é certificado");
    fs.writeFileSync(path.join(dir, "ca.pem"), "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n");
    expect(() => readConfig({ AUDIT_SYSLOG_URL: "tls://s.example:6514", AUDIT_SYSLOG_CA: path.join(dir, "lixo.pem") })).toThrow(
      /não contém um certificado PEM/,
    );
    expect(() => readConfig({ AUDIT_SYSLOG_URL: "tls://s.example:6514", AUDIT_SYSLOG_CA: dir })).toThrow(/não foi possível ler/);
    expect(
      readConfig({ AUDIT_SYSLOG_URL: "tls://s.example:6514", AUDIT_SYSLOG_CA: path.join(dir, "ca.pem") }).auditStream.syslog!.ca,
    ).not.toBeNull();
    fs.rmSync(dir, { recursive: true });
  });
});
