import { describe, expect, it } from "vitest";
import { backoffMs } from "../../../src/lib/server/audit/stream/deliverer";
import { octetCounted, syslogMessage, toEvents } from "../../../src/lib/server/audit/stream/event";
import { Webhook } from "standardwebhooks";
import { displayUrl, parseRetryAfter, webhookSignature } from "../../../src/lib/server/audit/stream/senders";

const ROW = {
  id: 42,
  createdAt: Date.UTC(2026, 10, 27, 12, 0, 0, 123),
  userId: "u1",
  userEmail: "ana@b1.example.com",
  userName: "Ana",
  actionType: "admin_role_assigned",
  result: "success",
  actionDetails: JSON.stringify({ role: 'ad"m]i\\n', note: "x" }),
  ipAddress: "192.0.2.1",
  userAgent: "UA",
  hash: "ab".repeat(32),
};

describe("streamed audit events", () => {
  it("carry the row as the audit page shows it, chained onto the previous hash", () => {
    const [event] = toEvents([ROW], "cd".repeat(32), "host:1", new Date(0));
    expect(event).toMatchObject({
      id: 42,
      time: "2026-11-27T12:00:00.123Z",
      action: "admin_role_assigned",
      actionLabel: "Role Atribuído",
      resultLabel: "Sucesso",
      actor: { email: "ana@b1.example.com", label: "Ana" },
      target: 'ad"m]i\\n',
      ip: "192.0.2.1",
      prevHash: "cd".repeat(32),
      hash: ROW.hash,
      instance: "host:1",
    });
  });

  it("become RFC 5424 messages with escaped structured data, octet-counted in bytes", () => {
    const [event] = toEvents([ROW], "", "host:1");
    const message = syslogMessage(event!, "máquina com espaço", "77");
    expect(message).toMatch(
      /^<110>1 2026-11-27T12:00:00\.123Z mquinacomespao b1-method-hub 77 admin_role_assigned \[b1audit@32473 id="42" /,
    );
    // PARAM-VALUE escapes ", \ and ] (RFC 5424 §6.3.3): the details only live in MSG.
    const sd = message.slice(message.indexOf("["), message.indexOf("] \uFEFF") + 1);
    expect(sd).toContain('target="ad\\"m\\]i\\\\n"');
    expect(sd).not.toContain("note");
    expect(JSON.parse(message.slice(message.indexOf("\uFEFF") + 1))).toMatchObject({ id: 42 });
    const frame = octetCounted(message);
    const space = frame.indexOf(0x20);
    expect(Number(frame.subarray(0, space).toString())).toBe(frame.length - space - 1);
  });

  it("retry waits: Retry-After in seconds or as a date (capped at 10 min), backoff doubling with jitter", () => {
    expect(parseRetryAfter("3")).toBe(3000);
    expect(parseRetryAfter("999999999")).toBe(600_000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter("amanhã")).toBeNull();
    expect(parseRetryAfter(null)).toBeNull();
    expect(backoffMs(1, 500, () => 0)).toBe(250);
    expect(backoffMs(1, 500, () => 1)).toBe(500);
    expect(backoffMs(4, 500, () => 1)).toBe(4000);
    expect(backoffMs(50, 500, () => 1)).toBe(10_000);
  });

  it("after a long outage the next attempt is at most 10 s away, so a receiver back after 60 s catches up within the 30 s target", () => {
    // 60 s of refused connections with the default base (500 ms): however many attempts that took.
    for (let attempt = 1; attempt <= 40; attempt++) expect(backoffMs(attempt, 500, () => 1)).toBeLessThanOrEqual(10_000);
    // A base set above the cap is still honoured (AUDIT_STREAM_BACKOFF_MS up to 60 s).
    expect(backoffMs(3, 30_000, () => 1)).toBe(30_000);
  });

  it("are signed exactly as the standardwebhooks package signs (native HMAC, same bytes)", () => {
    const key = new Uint8Array(Buffer.alloc(32, 7));
    const reference = new Webhook(key, { format: "raw" });
    const at = new Date(Date.UTC(2026, 10, 28, 15, 0, 0, 999));
    for (const body of ['{"a":1}', JSON.stringify({ nome: "Conceição ✓ \u202e", texto: "x".repeat(70_000) }), ""]) {
      expect(webhookSignature(key, "41-140", at, body)).toBe(reference.sign("41-140", at, body));
    }
    // And the package's verifier takes it.
    const body = JSON.stringify({ data: { events: [{ id: 1 }] } });
    const now = new Date();
    const headers = {
      "webhook-id": "1-1",
      "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
      "webhook-signature": webhookSignature(key, "1-1", now, body),
    };
    expect(reference.verify(body, headers)).toEqual({ data: { events: [{ id: 1 }] } });
  });

  it("show the receiver's address without credentials or query", () => {
    expect(displayUrl("https://user:senha@coletor.example:8443/b1?token=abc")).toBe("https://coletor.example:8443/b1");
  });
});

describe("a SIEM copy checks against the chain (the recipe in docs/implantacao.md)", () => {
  it("each event's hash chains from its prevHash over the fields it carries", async () => {
    const { chainHash, chainsFrom } = await import("../../../src/lib/server/audit/chain");
    const base = { ...ROW, result: "blocked", actionDetails: '{"count":3,"path":"/x"}' };
    const hash = chainHash("ef".repeat(32), base);
    const [event] = toEvents([{ ...base, hash }], "ef".repeat(32), "h:1");
    const parsed = JSON.parse(JSON.stringify(event)) as NonNullable<typeof event>;
    const row = {
      id: parsed.id,
      createdAt: parsed.createdAtMs,
      userId: parsed.actor.userId,
      actionType: parsed.action,
      result: parsed.result,
      actionDetails: parsed.detailsText,
      ipAddress: parsed.ip,
      userAgent: parsed.userAgent,
      hash: parsed.hash!,
    };
    expect(chainsFrom(parsed.prevHash, row)).toBe(true);
    expect(chainsFrom(parsed.prevHash, { ...row, actionType: "outra" })).toBe(false);
  });
});
