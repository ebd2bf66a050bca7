import { isIP } from "node:net";

/**
 * Who sent a request, for audit rows and rate limits. Behind the trusted proxy (TRUST_PROXY), the
 * LAST X-Forwarded-For entry: the one the proxy itself appended, naming the address it was
 * reached from. Entries before it are whatever the client wrote (HAProxy's `option forwardfor`
 * and nginx's `$proxy_add_x_forwarded_for` keep them), so reading the first one let a client pick
 * its own address: a fresh one per guess to the throttle, anyone's in the audit log. Node joins
 * repeated header lines with ", ", so the last line's last entry is the one taken. An entry that is
 * not a plain IP address (a zone id, a port, free text) falls back to the socket's address;
 * `::ffff:a.b.c.d` is read as the IPv4 address it carries.
 */
export function clientAddress(
  forwardedFor: string | string[] | undefined,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string | null {
  if (trustProxy && forwardedFor !== undefined) {
    const joined = Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor;
    const last = joined.slice(joined.lastIndexOf(",") + 1).trim();
    const address = plainAddress(last);
    if (address) return address;
  }
  return socketAddress ?? null;
}

/** A plain IPv4 or IPv6 address (no zone id, port or brackets), IPv4-mapped IPv6 read as IPv4; null otherwise. */
function plainAddress(value: string): string | null {
  if (value.length > 45 || value.includes("%")) return null;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(value);
  if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!;
  return isIP(value) !== 0 ? value : null;
}
