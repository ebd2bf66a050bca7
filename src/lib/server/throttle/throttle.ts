/**
 * Throttling: every limited flow (sign-in, sign-up, e-mail links, password update, e-mail
 * confirmation, two-factor codes, corporate sign-in) begins one attempt per request. The attempt
 * counts itself against each limit of its flow (flows.ts) in one atomic statement per counter,
 * so no burst of parallel requests is checked past a limit; it refuses at the first limit passed,
 * writing the one `blocked` audit row; and a success gives back the failures it counted in advance.
 * An account's limits count strangers together and a request from a remembered device of that
 * account (a browser that signed in to it before) apart, so no number of strangers' networks raises
 * an account's budget, and none of them can spend the owner's.
 * Counters live in the database (rate-limit.ts), shared by every instance.
 */
import type { RequestMeta } from "../audit/audit.ts";
import type { Db } from "../data/db.ts";
import { clientNetwork } from "../platform/ip-mask.ts";
import { auditBlockedAttempt } from "./blocked-audit.ts";
import { FLOWS, type Flow, type Rule, type ThrottledFlow } from "./flows.ts";
import { clearAttempts, countAttempt, isOverLimit, takeBackAttempt } from "./rate-limit.ts";

export { RATE_LIMIT_MESSAGE } from "./rate-limit.ts";
export type { ThrottledFlow } from "./flows.ts";

/** Who the account is, as a `blocked` audit row names it. */
export interface AccountLabel {
  email?: string;
  userId?: string;
}

/** A remembered device the request presented (sessions/remembered-device.ts): the account it proves and its key. */
export interface PresentedDevice {
  id: string;
  userId: string;
  email: string;
}

export interface Attempt {
  /** True once a limit refused this attempt (its `blocked` audit row is written). */
  readonly refused: boolean;
  /** Counts the attempt against the account's limits; true when one refuses it. */
  forAccount(account: string, label?: AccountLabel): Promise<boolean>;
  /** The attempt turned out fine: failures counted in advance are given back. Without it, the attempt stays a failure. */
  succeeded(): Promise<void>;
  /** Nothing was checked after all (e.g. the challenge had expired): failures counted in advance are given back. */
  notChecked(): Promise<void>;
}

/**
 * One request's attempt at `flow`, checked against the client's limits before anything else runs;
 * `device` is the remembered device its cookie proves, if any.
 */
export async function beginAttempt(
  db: Db,
  flow: ThrottledFlow,
  meta: RequestMeta,
  device: PresentedDevice | null = null,
): Promise<Attempt> {
  const attempt = new ThrottledAttempt(db, FLOWS[flow], meta, device);
  await attempt.check(FLOWS[flow].perClient);
  return attempt;
}

interface Counted {
  key: string;
  rule: Rule;
}

class ThrottledAttempt implements Attempt {
  refused = false;
  private readonly counted: Counted[] = [];
  private readonly network: string;
  private account = "";
  private label: AccountLabel = {};

  constructor(
    private readonly db: Db,
    private readonly flow: Flow,
    private readonly meta: RequestMeta,
    private readonly device: PresentedDevice | null,
  ) {
    this.network = clientNetwork(meta.ipAddress);
  }

  async forAccount(account: string, label: AccountLabel = { email: account }): Promise<boolean> {
    if (this.refused) return true;
    this.account = account;
    this.label = label;
    const rules = this.flow.perDevice && this.deviceProves(label) ? this.flow.perDevice : this.flow.perAccount;
    await this.check(rules);
    return this.refused;
  }

  /** Whether the presented device was remembered for this very account. */
  private deviceProves(label: AccountLabel): boolean {
    if (!this.device) return false;
    return label.userId ? label.userId === this.device.userId : label.email === this.device.email;
  }

  async succeeded(): Promise<void> {
    await this.giveBackFailures(true);
  }

  async notChecked(): Promise<void> {
    await this.giveBackFailures(false);
  }

  private async giveBackFailures(forgiveClient: boolean): Promise<void> {
    for (const { key, rule } of this.counted.splice(0)) {
      if (rule.counts !== "failures") continue;
      if (forgiveClient && rule.clearedBySuccess) await clearAttempts(this.db, key);
      else await takeBackAttempt(this.db, key);
    }
  }

  /** Checks `rules` in order; the first one passed refuses, and failures counted for this unchecked attempt are given back. */
  async check(rules: readonly Rule[]): Promise<void> {
    const countedHere: Counted[] = [];
    for (const rule of rules) {
      const key = this.keyOf(rule);
      let over: boolean;
      if (rule.counts === "peek") {
        over = await isOverLimit(this.db, key, rule.limit);
      } else {
        over = (await countAttempt(this.db, key, rule.limit)).over;
        countedHere.push({ key, rule });
      }
      if (over) {
        for (const counted of countedHere) if (counted.rule.counts === "failures") await takeBackAttempt(this.db, counted.key);
        await this.refuse(key);
        return;
      }
    }
    this.counted.push(...countedHere);
  }

  private keyOf(rule: Rule): string {
    return `${rule.name}:${this.subjectOf(rule.scope)}`;
  }

  private subjectOf(scope: Rule["scope"]): string {
    switch (scope) {
      case "network":
        return this.network;
      case "account":
        return this.account;
      case "pair":
        return `${this.network}:${this.account}`;
      case "device":
        return this.device?.id ?? "";
    }
  }

  private async refuse(key: string): Promise<void> {
    this.refused = true;
    if (!this.flow.actionType) return;
    const { email, userId } = this.label;
    await auditBlockedAttempt(this.db, key, {
      actionType: this.flow.actionType,
      ...(userId ? { userId } : {}),
      details: { ...(email ? { email } : {}), error: "rate_limited" },
      ...this.meta,
    });
  }
}
