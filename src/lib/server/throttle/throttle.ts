/**
 * Throttling: every limited flow (sign-in, sign-up, e-mail links, password update, e-mail
 * confirmation, two-factor codes, corporate sign-in) begins one attempt per request. The attempt
 * counts itself against each limit of its flow (flows.ts) in one atomic statement per counter,
 * so no burst of parallel requests is checked past a limit; it refuses at the first limit passed,
 * writing the one `blocked` audit row; and a success gives back the failures it counted in advance.
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

/** One request's attempt at `flow`, checked against the client's limits before anything else runs. */
export async function beginAttempt(db: Db, flow: ThrottledFlow, meta: RequestMeta): Promise<Attempt> {
  const attempt = new ThrottledAttempt(db, FLOWS[flow], meta);
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
  ) {
    this.network = clientNetwork(meta.ipAddress);
  }

  async forAccount(account: string, label: AccountLabel = { email: account }): Promise<boolean> {
    if (this.refused) return true;
    this.account = account;
    this.label = label;
    await this.check(this.flow.perAccount);
    return this.refused;
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
    let clientFailuresBefore = 0;
    for (const rule of rules) {
      const key = this.keyOf(rule);
      let over: boolean;
      if (rule.counts === "peek") {
        over = await isOverLimit(this.db, key, rule.limit);
      } else {
        const { count, over: past } = await countAttempt(this.db, key, rule.limit);
        countedHere.push({ key, rule });
        if (rule.scope === "pair") clientFailuresBefore = count - 1;
        over = past && (!rule.onlyAfterClientFailures || clientFailuresBefore > 0);
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
    const subject = rule.scope === "network" ? this.network : rule.scope === "account" ? this.account : `${this.network}:${this.account}`;
    return `${rule.name}:${subject}`;
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
