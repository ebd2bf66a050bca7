import fs from "node:fs";
import path from "node:path";

/** Decodes the quoted-printable soft breaks and escapes of a raw RFC 822 message. */
export function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const hex = joined.slice(i + 1, i + 3);
    if (joined[i] === "=" && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(joined[i]!, "utf8"));
    }
  }
  return Buffer.from(bytes).toString("utf8");
}

/** The first link to the portal in a raw message (text or HTML part). */
export function extractLink(raw: string, pathPart: string): string | null {
  const text = decodeQuotedPrintable(raw);
  const match = new RegExp(`https?://[^\\s"<>]*${pathPart.replace(/[?]/g, "\\?")}[^\\s"<>]*`).exec(text);
  return match ? match[0].replace(/&amp;/g, "&") : null;
}

/** Raw messages in `dir` addressed to `to`, oldest first. */
export function readMails(dir: string, to: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((file) => file.endsWith(".eml"))
    .sort()
    .map((file) => fs.readFileSync(path.join(dir, file), "utf8"))
    .filter((raw) => new RegExp(`^To: .*${to.replace(/[.+]/g, "\\$&")}`, "mi").test(raw));
}

/** Polls until a message to `to` containing a link with `pathPart` arrives; returns the link. */
export async function waitForLink(dir: string, to: string, pathPart: string, timeoutMs = 10_000, after = 0): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = readMails(dir, to).slice(after);
    for (const raw of mails.reverse()) {
      const link = extractLink(raw, pathPart);
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`nenhum e-mail para ${to} com ${pathPart}`);
}

/** The decoded Subject of a raw message (folded lines joined, RFC 2047 encoded words decoded). */
export function mailSubject(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? "";
  return header
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, encoding: string, text: string) =>
      encoding.toLowerCase() === "b" ? Buffer.from(text, "base64").toString("utf8") : decodeQuotedPrintable(text.replace(/_/g, " ")),
    )
    .replace(/\r?\n[ \t]/g, " ");
}
