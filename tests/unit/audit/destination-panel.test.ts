/**
 * Panel audit destinations (issue 64), the parts with no server: the key's setting, the sealed secret
 * (AES-256-GCM, bound to the destination's name) and the addresses a panel destination may not reach.
 */
import { describe, expect, it } from "vitest";
import { readConfig } from "../../../src/lib/server/config/config";
import { blockedAddress } from "../../../src/lib/server/audit/stream/guard";
import { generateSecret, openSecret, sealSecret } from "../../../src/lib/server/audit/stream/panel";
import { cleanExcerpt, webhookSignature, webhookSignatures } from "../../../src/lib/server/audit/stream/senders";

const KEY = new Uint8Array(Buffer.alloc(32, 9));

describe("panel audit destinations", () => {
  it("reads AUDIT_DESTINATION_KEY (hex or base64, 32 bytes) and AUDIT_DESTINATIONS_ALLOW_PRIVATE, refusing anything else in Portuguese", () => {
    expect(readConfig({}).auditStream.destinationKey).toBeNull();
    expect(readConfig({}).auditStream.allowPrivate).toBe(false);
    expect(readConfig({ AUDIT_DESTINATION_KEY: "ab".repeat(32) }).auditStream.destinationKey).toEqual(
      new Uint8Array(Buffer.alloc(32, 0xab)),
    );
    expect(readConfig({ AUDIT_DESTINATION_KEY: Buffer.alloc(32, 1).toString("base64") }).auditStream.destinationKey!.length).toBe(32);
    expect(() => readConfig({ AUDIT_DESTINATION_KEY: "curta" })).toThrow(/AUDIT_DESTINATION_KEY deve ter 32 bytes/);
    expect(readConfig({ AUDIT_DESTINATIONS_ALLOW_PRIVATE: "true" }).auditStream.allowPrivate).toBe(true);
    expect(() => readConfig({ AUDIT_DESTINATIONS_ALLOW_PRIVATE: "sim" })).toThrow(/true ou false/);
  });

  it("seals a generated secret so it opens only with the key, for the same destination, unaltered", () => {
    const { text, bytes } = generateSecret();
    expect(text).toBe(`whsec_${bytes.toString("base64")}`);
    const sealed = sealSecret(KEY, "webhook", bytes);
    expect(sealed).not.toContain(bytes.toString("base64url").slice(0, 12));
    expect(sealSecret(KEY, "webhook", bytes)).not.toBe(sealed);
    expect(openSecret(KEY, "webhook", sealed)).toEqual(bytes);
    expect(openSecret(new Uint8Array(Buffer.alloc(32, 8)), "webhook", sealed)).toBeNull();
    expect(openSecret(KEY, "syslog", sealed)).toBeNull();
    const [iv, tag, body] = sealed.split(".");
    const flipped = Buffer.from(body!, "base64url");
    flipped[0]! ^= 1;
    expect(openSecret(KEY, "webhook", [iv, tag, flipped.toString("base64url")].join("."))).toBeNull();
    expect(openSecret(KEY, "webhook", "lixo")).toBeNull();
  });

  it("blocks loopback, link-local, metadata, private, shared, multicast, mapped and unspecified addresses; allows public ones", () => {
    for (const address of [
      "127.0.0.1",
      "127.255.255.254",
      "0.0.0.0",
      "10.0.0.1",
      "100.64.0.1",
      "169.254.169.254",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "224.0.0.1",
      "255.255.255.255",
      "::",
      "::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:169.254.169.254",
      "0:0:0:0:0:ffff:a00:1",
      "fe80::1",
      "fd00:ec2::254",
      "fc00::1",
      "ff02::1",
      "nem-ip",
    ])
      expect(blockedAddress(address), address).toBe(true);
    // Public ones, IPv4-mapped included (a ::ffff:0:0/96 rule once blocked every IPv4 address: BlockList checks them as mapped).
    for (const address of ["8.8.8.8", "172.32.0.1", "100.128.0.1", "2001:4860:4860::8888", "1.1.1.1", "::ffff:8.8.8.8", "::ffff:808:808"])
      expect(blockedAddress(address), address).toBe(false);
  });

  it("signs with both secrets during the grace period, with the new one only after it; excerpts lose control and bidi characters", () => {
    const at = new Date(1_800_000_000_000);
    const fresh = new Uint8Array(Buffer.alloc(32, 1));
    const old = new Uint8Array(Buffer.alloc(32, 2));
    const base = { url: "https://x.example", secret: fresh, batchSize: 1, timeoutMs: 1000, previousSecret: old };
    const both = webhookSignatures({ ...base, previousUntil: at.getTime() + 1 }, "1-1", at, "{}");
    expect(both).toBe(`${webhookSignature(fresh, "1-1", at, "{}")} ${webhookSignature(old, "1-1", at, "{}")}`);
    expect(webhookSignatures({ ...base, previousUntil: at.getTime() }, "1-1", at, "{}")).toBe(webhookSignature(fresh, "1-1", at, "{}"));
    expect(cleanExcerpt("a\u202eb\u0000c\u001b[0m\u200bd")).toBe("a b c [0m d");
    expect(cleanExcerpt("x".repeat(1000))).toHaveLength(300);
  });
});
