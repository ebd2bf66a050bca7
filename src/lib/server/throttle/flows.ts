import type { AuditActionType } from "../../audit/actions.ts";
import type { Limit } from "./rate-limit.ts";

/**
 * Whose attempts a rule counts together: the client's network, the account, the account from that
 * network, or one remembered device of the account (a browser that completed a sign-in of it before).
 */
export type Scope = "network" | "account" | "pair" | "device";

export interface Rule {
  /** The counter's name; rules of different flows with the same name share one count. */
  name: string;
  scope: Scope;
  limit: Limit;
  /**
   * attempts: every attempt counts. failures: counted before the check (so parallel attempts cannot
   * slip past), given back when the attempt succeeds. peek: refuses a client already over the
   * limit without counting (a fast refusal before the body is read; the counting rule is the guard).
   */
  counts: "attempts" | "failures" | "peek";
  /** A success wipes the count instead of giving back one. */
  clearedBySuccess?: boolean;
}

export interface Flow {
  /** The action its `blocked` audit row names (null: refusals are not audited). */
  actionType: AuditActionType | null;
  /** Checked when the attempt begins, before the request body is read. */
  perClient: Rule[];
  /** Checked once the account is known, for a request without a remembered device of that account: one budget for all strangers. */
  perAccount: Rule[];
  /**
   * Checked instead of `perAccount` when the request carries a remembered device of the account: the
   * owner's browser has budgets of its own that no stranger can spend. Without it, the device changes nothing.
   */
  perDevice?: Rule[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const signInNetworkFailures: Rule = {
  name: "sign-in:failures:ip",
  scope: "network",
  limit: { max: 30, windowMs: 15 * MINUTE },
  counts: "failures",
};

/**
 * Wrong passwords for one account from strangers: 8 per network, and 20 in all, whatever the number
 * of networks (an IPv6 /48 holds 65,536 /64s); past that, only the owner's remembered browser is checked.
 */
const signInFailures: Rule[] = [
  signInNetworkFailures,
  { name: "sign-in:failures:pair", scope: "pair", limit: { max: 8, windowMs: 15 * MINUTE }, counts: "failures", clearedBySuccess: true },
  { name: "sign-in:failures:email", scope: "account", limit: { max: 20, windowMs: 15 * MINUTE }, counts: "failures" },
];

/** The owner's remembered browser: its own 20 wrong passwords, from any network. */
const signInDeviceFailures: Rule[] = [
  signInNetworkFailures,
  {
    name: "sign-in:failures:device",
    scope: "device",
    limit: { max: 20, windowMs: 15 * MINUTE },
    counts: "failures",
    clearedBySuccess: true,
  },
];

const signInClient: Rule[] = [
  { ...signInNetworkFailures, counts: "peek" },
  /** Sign-ins of any outcome: bounds the Argon2 work one client can ask for. */
  { name: "sign-in:ip", scope: "network", limit: { max: 100, windowMs: 15 * MINUTE }, counts: "attempts" },
];

const mailClient: Rule[] = [{ name: "mail:ip", scope: "network", limit: { max: 10, windowMs: HOUR }, counts: "attempts" }];
/** Mails to one address asked by strangers: 3 an hour per network, 10 in all, so one network cannot spend them all. */
const mailAccount: Rule[] = [
  { name: "mail:pair", scope: "pair", limit: { max: 3, windowMs: HOUR }, counts: "attempts" },
  { name: "mail:email", scope: "account", limit: { max: 10, windowMs: HOUR }, counts: "attempts" },
];
/** Asked from the owner's remembered browser: 5 an hour of its own, whatever strangers asked. */
const mailDevice: Rule[] = [{ name: "mail:device", scope: "device", limit: { max: 5, windowMs: HOUR }, counts: "attempts" }];

const twoFactorNetworkFailures: Rule = {
  name: "two-factor:failures:ip",
  scope: "network",
  limit: { max: 30, windowMs: 15 * MINUTE },
  counts: "failures",
};

/** Every limited flow and its limits, in the order they are checked. */
export const FLOWS = {
  "sign-in": { actionType: "user_login_attempt", perClient: signInClient, perAccount: signInFailures, perDevice: signInDeviceFailures },
  /** Confirming an e-mail checks the sign-up password: the same counts as a sign-in. */
  "confirm-email": { actionType: "user_email_confirmed", perClient: signInClient, perAccount: signInFailures },
  "sign-up": {
    actionType: "user_signup_attempt",
    perClient: [{ name: "sign-up:ip", scope: "network", limit: { max: 10, windowMs: HOUR }, counts: "attempts" }],
    perAccount: [],
  },
  /** Reset and resend share one mail budget per network and per address. */
  "reset-request": { actionType: "password_reset_request", perClient: mailClient, perAccount: mailAccount, perDevice: mailDevice },
  "resend-link": { actionType: "email_confirmation_resend", perClient: mailClient, perAccount: mailAccount, perDevice: mailDevice },
  "update-password": {
    actionType: null,
    perClient: [{ name: "password-update:ip", scope: "network", limit: { max: 10, windowMs: 15 * MINUTE }, counts: "attempts" }],
    perAccount: [],
  },
  /**
   * Codes after the password: per network like sign-ins, and a budget of wrong codes per account
   * that no number of networks or challenges raises (10 an hour: ~0.02 % of the code space a day);
   * the owner's remembered browser has 10 of its own, so someone holding the password cannot lock the owner out.
   */
  "two-factor": {
    actionType: "two_factor_login_failure",
    perClient: signInClient,
    perAccount: [
      twoFactorNetworkFailures,
      { name: "two-factor:failures:account", scope: "account", limit: { max: 10, windowMs: HOUR }, counts: "failures" },
    ],
    perDevice: [
      twoFactorNetworkFailures,
      { name: "two-factor:failures:device", scope: "device", limit: { max: 10, windowMs: HOUR }, counts: "failures" },
    ],
  },
  /**
   * Redirects to the provider: each stores a pending attempt, so a network gets a ceiling, high
   * enough that an office of thousands never meets it while a page firing requests must send
   * 100 times more than before to block anyone.
   */
  "sso-start": {
    actionType: null,
    perClient: [{ name: "sso:ip", scope: "network", limit: { max: 3000, windowMs: 15 * MINUTE }, counts: "attempts" }],
    perAccount: [],
  },
  /** Callbacks with an unknown or used state (a completed sign-in is never counted). */
  "sso-callback": {
    actionType: "sso_invalid_state",
    perClient: [{ name: "sso-callback:failures:ip", scope: "network", limit: { max: 30, windowMs: 15 * MINUTE }, counts: "attempts" }],
    perAccount: [],
  },
  /**
   * 'Li e entendi': a person confirms at most a few dozen pages, so a page or script sending
   * confirmations in a loop is refused long before it fills the audit log.
   */
  /** 'Esta página ajudou?': a person answers a few pages a day; refusals are not audited (nothing to protect but the table's size). */
  "reading-confirm": {
    actionType: "reading_confirmed",
    perClient: [{ name: "reading:ip", scope: "network", limit: { max: 600, windowMs: 15 * MINUTE }, counts: "attempts" }],
    perAccount: [{ name: "reading:account", scope: "account", limit: { max: 60, windowMs: 15 * MINUTE }, counts: "attempts" }],
  },
  "reading-digest-setting": {
    actionType: "reading_digest_opt_out",
    perClient: [{ name: "reading-digest:ip", scope: "network", limit: { max: 300, windowMs: 15 * MINUTE }, counts: "attempts" }],
    perAccount: [{ name: "reading-digest:account", scope: "account", limit: { max: 30, windowMs: 15 * MINUTE }, counts: "attempts" }],
  },
} as const satisfies Record<string, Flow>;

export type ThrottledFlow = keyof typeof FLOWS;
