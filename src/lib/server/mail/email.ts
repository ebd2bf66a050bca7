/**
 * Mail: sending over SMTP, or to data/outbox without it, and every message the portal sends, each
 * greeting neutrally (nothing a person typed goes into a mail).
 */
import fs from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { config } from "../config/config.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** How long a mail server may take to accept the connection and to greet (nodemailer's defaults are 2 min and 30 s). */
const SMTP_CONNECT_TIMEOUT_MS = 10_000;

/**
 * A failed SMTP send, marked with whether the message's content had started to go out (the DATA command was
 * sent) and whether the mail server said anything at all (a line of its own, its greeting included).
 */
type SendError = Error & { dataSent?: boolean; serverReplied?: boolean };

/**
 * One SMTP send on its own connection, watching the commands it writes: before DATA nothing of the
 * message can be stored by the server, so a failure then is a sure "not sent" (mailSurelyNotTaken).
 */
export async function sendOverSmtp(smtpUrl: string, message: Mail & { from: string }): Promise<void> {
  const state = { dataSent: false, serverReplied: false };
  const watch = (entry: { tnx?: string } | undefined, text: unknown) => {
    if (entry?.tnx === "server") state.serverReplied = true;
    if (entry?.tnx === "client" && /^DATA\b/i.test(String(text ?? ""))) state.dataSent = true;
  };
  const logger = { trace: watch, debug: watch, info: watch, warn: watch, error: watch, fatal: watch };
  const transport: Transporter = nodemailer.createTransport({
    url: smtpUrl,
    logger,
    transactionLog: true,
    connectionTimeout: SMTP_CONNECT_TIMEOUT_MS,
    greetingTimeout: SMTP_CONNECT_TIMEOUT_MS,
  } as Parameters<typeof nodemailer.createTransport>[0]);
  try {
    await transport.sendMail(message);
  } catch (error) {
    if (error instanceof Error) Object.assign(error as SendError, state);
    throw error;
  } finally {
    transport.close();
  }
}

/**
 * Sends over SMTP when `SMTP_URL` is set; otherwise writes the message as an .eml file under
 * data/outbox and prints it on the console, so a fresh clone works with no mail server.
 */
export async function sendMail(mail: Mail): Promise<void> {
  const { smtpUrl, mailFrom, outboxDir } = config();
  if (smtpUrl) {
    await sendOverSmtp(smtpUrl, { from: mailFrom, ...mail });
    return;
  }
  const outbox = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const info = await outbox.sendMail({ from: mailFrom, ...mail });
  fs.mkdirSync(outboxDir, { recursive: true });
  const file = path.join(outboxDir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.to}.eml`);
  fs.writeFileSync(file, info.message as Buffer);
  console.log(`[e-mail] ${mail.subject} → ${mail.to} (sem SMTP: ${file})\n${mail.text}`);
}

/** System errors of a connection that never opened: no byte of the message left this process. */
const NEVER_CONNECTED = new Set(["ECONNREFUSED", "EHOSTUNREACH", "ENETUNREACH", "EADDRNOTAVAIL", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * Whether a failed sendMail surely left the message undelivered: the mail server answered with a
 * 4xx/5xx reply (it refused it), the session ended before the DATA command, or no connection was
 * ever made (refused, unreachable, no address, timed out while connecting or greeting). Anything else — the connection dropped or timed out after it
 * opened, in particular after the message's content went out and before the server's 250 — may
 * have left the message stored, so sending it again could deliver it twice.
 */
export function mailSurelyNotTaken(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { responseCode, code, originalCode, timeoutType, dataSent } = error as Record<string, unknown>;
  if (typeof responseCode === "number" && responseCode >= 400 && responseCode < 600) return true;
  // The DATA command was never written (a server that closed or stayed silent before its greeting, a
  // session cut before DATA): no byte of the message reached the server.
  if (dataSent === false) return true;
  if (code === "EDNS" || timeoutType === "CONNECT_TIMEOUT" || timeoutType === "GREETING_TIMEOUT") return true;
  return typeof originalCode === "string" && NEVER_CONNECTED.has(originalCode);
}

/**
 * Whether a failed send met no mail server at all: no connection, or one that closed or stayed silent
 * without a single line (not even its greeting). The next person's mail would wait the same way, so the
 * weekly reminder stops its pass after a few of these in a row instead of trying everyone.
 */
export function mailServerUnreachable(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { serverReplied, responseCode } = error as Record<string, unknown>;
  return serverReplied === false && typeof responseCode !== "number";
}

/** A failed send in one Portuguese line for the logs: what the server said or why there was no server, never a stack. */
export function describeMailError(error: unknown): string {
  const { responseCode, response, code, originalCode, timeoutType } = (error && typeof error === "object" ? error : {}) as Record<
    string,
    unknown
  >;
  if (typeof responseCode === "number") return `o servidor de e-mail respondeu ${String(response ?? responseCode).slice(0, 200)}`;
  if (typeof originalCode === "string" && NEVER_CONNECTED.has(originalCode)) return `servidor de e-mail inacessível (${originalCode})`;
  if (code === "EDNS") return "o endereço do servidor de e-mail não foi encontrado (DNS)";
  if (timeoutType === "CONNECT_TIMEOUT") return "o servidor de e-mail não aceitou a conexão a tempo";
  if (timeoutType === "GREETING_TIMEOUT") return "o servidor de e-mail aceitou a conexão e não se apresentou a tempo";
  if (timeoutType) return "o servidor de e-mail parou de responder no meio do envio";
  if (code === "ECONNECTION") return "o servidor de e-mail encerrou a conexão";
  return `falha no envio (${typeof code === "string" ? code : error instanceof Error ? error.message.slice(0, 200) : "erro desconhecido"})`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
}

/** A short message with one call-to-action link, as plain text and simple HTML. */
export function buildLinkMail(input: {
  to: string;
  subject: string;
  greeting: string;
  lines: string[];
  action: string;
  url: string;
}): Mail {
  const text = [input.greeting, "", ...input.lines, "", `${input.action}: ${input.url}`, "", "Equipe B1 Method Hub"].join("\n");
  const html = `<!doctype html><html lang="pt-BR"><body style="font-family:Arial,sans-serif;color:#0f172a">
<p>${escapeHtml(input.greeting)}</p>
${input.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("\n")}
<p><a href="${escapeHtml(input.url)}" style="display:inline-block;background:#1f57c8;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(input.action)}</a></p>
<p style="font-size:12px;color:#475569">Se o botão não funcionar, copie este endereço no navegador: ${escapeHtml(input.url)}</p>
<p>Equipe B1 Method Hub</p></body></html>`;
  return { to: input.to, subject: input.subject, text, html };
}

// Mails greet neutrally: nothing a person typed (a name could carry a link) goes into them.
const GREETING = "Olá!";

export function confirmationMail(to: string, url: string): Mail {
  return buildLinkMail({
    to,
    subject: "Confirme seu e-mail no B1 Method Hub",
    greeting: GREETING,
    lines: [
      "Recebemos um cadastro no B1 Method Hub com este endereço.",
      "Para ativar a conta, abra o link e digite a senha escolhida no cadastro. O link vale por 24 horas e pode ser usado uma vez.",
      "Se você não fez este cadastro, ignore este e-mail: sem a senha, ninguém ativa a conta.",
    ],
    action: "Confirmar e-mail",
    url,
  });
}

export function passwordResetMail(to: string, url: string): Mail {
  return buildLinkMail({
    to,
    subject: "Redefinição de senha do B1 Method Hub",
    greeting: GREETING,
    lines: [
      "Recebemos um pedido para redefinir a senha da sua conta.",
      "O link vale por 1 hora e pode ser usado uma vez. Se você não fez o pedido, ignore este e-mail: sua senha continua a mesma.",
    ],
    action: "Definir nova senha",
    url,
  });
}

/** After a second sign-up of an unconfirmed address: only the mailbox can set the password. */
export function setPasswordMail(to: string, url: string): Mail {
  return buildLinkMail({
    to,
    subject: "Defina sua senha no B1 Method Hub",
    greeting: GREETING,
    lines: [
      "Recebemos um novo cadastro com este endereço, que ainda não estava confirmado.",
      "Por segurança, a senha dos cadastros anteriores foi descartada. Defina a sua pelo link abaixo; ele também confirma o seu e-mail. O link vale por 1 hora e pode ser usado uma vez.",
      "Se você não fez este cadastro, ignore este e-mail.",
    ],
    action: "Definir senha",
    url,
  });
}

export function newDeviceMail(to: string, device: { label: string; ipAddress: string | null; when: string }, sessionsUrl: string): Mail {
  return buildLinkMail({
    to,
    subject: "Novo acesso à sua conta do B1 Method Hub",
    greeting: GREETING,
    lines: [
      `Sua conta entrou no B1 Method Hub por um dispositivo que nenhuma das suas sessões abertas usa: ${device.label}${device.ipAddress ? `, endereço ${device.ipAddress}` : ""}, em ${device.when}.`,
      "Se foi você, não é preciso fazer nada. Se não foi, troque sua senha agora e encerre as sessões que não reconhece.",
    ],
    action: "Ver minhas sessões",
    url: sessionsUrl,
  });
}

export function twoFactorEnabledMail(to: string, accountUrl: string): Mail {
  return buildLinkMail({
    to,
    subject: "Verificação em duas etapas ativada no B1 Method Hub",
    greeting: GREETING,
    lines: [
      "A verificação em duas etapas foi ativada na sua conta: a partir de agora, o login pede também o código do aplicativo autenticador.",
      "Se não foi você, fale com o administrador do portal imediatamente.",
    ],
    action: "Ver minha conta",
    url: accountUrl,
  });
}

export function twoFactorResetMail(to: string, accountUrl: string): Mail {
  return buildLinkMail({
    to,
    subject: "Verificação em duas etapas removida da sua conta do B1 Method Hub",
    greeting: GREETING,
    lines: [
      "Um administrador removeu a verificação em duas etapas da sua conta e encerrou as suas sessões (por exemplo, depois da perda do celular).",
      "No próximo login, ative-a de novo com o aplicativo autenticador. Se você não pediu isso, fale com o administrador do portal.",
    ],
    action: "Entrar no portal",
    url: accountUrl,
  });
}

/** The weekly reminder: the pages still to confirm (only pages the person may open), with a link to /leitura. */
export function readingDigestMail(
  to: string,
  pending: readonly { title: string; version: number; summary: string }[],
  readingUrl: string,
  settingsUrl: string,
): Mail {
  const count = pending.length === 1 ? "1 leitura obrigatória pendente" : `${pending.length} leituras obrigatórias pendentes`;
  return buildLinkMail({
    to,
    subject: `Você tem ${count} no B1 Method Hub`,
    greeting: GREETING,
    lines: [
      `Você tem ${count}. Abra cada página e, ao final, clique em 'Li e entendi':`,
      ...pending.map((item) => `• ${item.title} (versão ${item.version}): ${item.summary}`),
      `Este lembrete chega uma vez por semana enquanto houver leitura pendente. Para não recebê-lo mais, desmarque a opção em Notificações por e-mail: ${settingsUrl}`,
    ],
    action: "Ver minhas leituras",
    url: readingUrl,
  });
}
