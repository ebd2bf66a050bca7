import client from "prom-client";
import type { AuditStream } from "../../lib/server/audit/stream/deliverer.ts";

/** `b1_audit_delivery_lag_seconds{destination}`: age of the oldest audit row a destination has not received (0 when caught up). */
export function registerAuditStreamMetric(registry: client.Registry, stream: Pick<AuditStream, "states">): void {
  new client.Gauge({
    name: "b1_audit_delivery_lag_seconds",
    help: "Atraso do envio da auditoria por destino: idade do registro mais antigo ainda não entregue (0 quando em dia).",
    labelNames: ["destination"] as const,
    registers: [registry],
    async collect() {
      for (const state of await stream.states().catch(() => [])) this.set({ destination: state.name }, state.lagSeconds);
    },
  });
}
