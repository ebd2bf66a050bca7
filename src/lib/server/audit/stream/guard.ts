/**
 * Where a destination set in the admin panel may point (issue 64): only http(s) and tcp/tls syslog,
 * and never, unless AUDIT_DESTINATIONS_ALLOW_PRIVATE=true, an address inside the network the portal
 * runs in (loopback, link-local with the cloud metadata service, private and shared ranges): an admin
 * account must not become a way to probe or post to internal services (SSRF). The address is checked
 * when saved and again at every connection, on every address the name resolves to then (DNS rebinding).
 */
import dns from "node:dns";
import net from "node:net";

const BLOCKED = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8], // "this network", 0.0.0.0
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // shared address space (carrier NAT; Alibaba's metadata 100.100.100.200)
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, the metadata service 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved and broadcast
] as const)
  BLOCKED.addSubnet(address, prefix, "ipv4");
for (const [address, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96], // NAT64
  ["fc00::", 7], // unique local (AWS's metadata fd00:ec2::254)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const)
  BLOCKED.addSubnet(address, prefix, "ipv6");

/**
 * The IPv4 address inside an IPv4-mapped IPv6 one (::ffff:127.0.0.1, ::ffff:7f00:1), or null. Not a ::ffff:0:0/96
 * rule in BLOCKED: net.BlockList checks every IPv4 address against its IPv6 rules as mapped, so that rule blocked all of them.
 */
function mappedIpv4(address: string): string | null {
  const canonical = URL.parse(`http://[${address}]/`)?.hostname ?? "";
  const match = /^\[::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})\]$/.exec(canonical);
  if (!match) return null;
  const high = parseInt(match[1]!, 16);
  const low = parseInt(match[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}

/** Whether an IP address is one a panel destination may not reach (without AUDIT_DESTINATIONS_ALLOW_PRIVATE). */
export function blockedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return true;
  if (family === 6) {
    // An IPv4-mapped address is the IPv4 one: 127.0.0.1 written as ::ffff:7f00:1 is loopback still.
    const inner = mappedIpv4(address);
    if (inner !== null) return BLOCKED.check(inner, "ipv4");
  }
  return BLOCKED.check(address, family === 4 ? "ipv4" : "ipv6");
}

export const BLOCKED_MESSAGE =
  "Endereço recusado: aponta para a rede interna (loopback, link-local, serviço de metadados ou faixa privada). " +
  "Se o coletor está mesmo na rede interna, o operador define AUDIT_DESTINATIONS_ALLOW_PRIVATE=true no servidor.";

export class BlockedAddressError extends Error {
  readonly code = "EB1BLOCKED";
  constructor() {
    super(BLOCKED_MESSAGE);
  }
}

/** A host as written in a URL, without IPv6's brackets. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Resolves `host` and refuses it when it is, or any of its addresses is, blocked. Throws BlockedAddressError or the DNS error. */
export async function assertPublicHost(host: string): Promise<void> {
  const bare = bareHost(host);
  if (net.isIP(bare)) {
    if (blockedAddress(bare)) throw new BlockedAddressError();
    return;
  }
  const addresses = await dns.promises.lookup(bare, { all: true, verbatim: true });
  if (addresses.length === 0 || addresses.some((entry) => blockedAddress(entry.address))) throw new BlockedAddressError();
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request, net.connect and tls.connect that resolves every address and fails the
 * connection when any of them is blocked: the address connected to is one of those checked, so a
 * name that answers a public address when saved and 127.0.0.1 now is refused now.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    if (addresses.length === 0 || addresses.some((entry) => blockedAddress(entry.address))) return callback(new BlockedAddressError(), []);
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}
