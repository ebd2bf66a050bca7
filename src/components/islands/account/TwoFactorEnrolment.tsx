import { useEffect, useState, type FormEvent } from "react";
import { sendJson, UNEXPECTED_ERROR } from "../../../lib/api-client";
import { safeNextPath } from "../../../lib/url-path";
import { download } from "../journey/trail-download";
import { FormField, SubmitButton } from "../ui/FormField";

type Status = { available: boolean; enrolled: boolean; recoveryCodesLeft: number };
type Step =
  | { kind: "loading" }
  | { kind: "status"; status: Status }
  | { kind: "scan"; qrSvg: string; manualKey: string }
  | { kind: "codes"; codes: string[] };

const secondaryButtonClass =
  "rounded-md border border-slate-300 px-4 py-2.5 font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800";
const buttonClass = "rounded-md bg-brand-600 px-4 py-2.5 font-semibold text-white hover:bg-brand-700 disabled:opacity-70";

/** Turning on two-factor sign-in: QR code and key, the first code, then the recovery codes (shown once). */
export default function TwoFactorEnrolment() {
  const [step, setStep] = useState<Step>({ kind: "loading" });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [copyNotice, setCopyNotice] = useState("");
  const next = safeNextPath(new URLSearchParams(window.location.search).get("next") ?? "/");

  useEffect(() => {
    fetch("/api/conta/dois-fatores", { headers: { Accept: "application/json" } })
      .then((response) => response.json() as Promise<Status & { error?: string }>)
      .then((status) => (status.error ? setError(status.error) : setStep({ kind: "status", status })))
      .catch(() => setError(UNEXPECTED_ERROR));
  }, []);

  async function begin() {
    setBusy(true);
    const { status, body } = await sendJson<{ qrSvg: string; manualKey: string }>("/api/conta/dois-fatores", {}).catch(() => ({
      status: 0,
      body: { error: UNEXPECTED_ERROR } as { qrSvg: string; manualKey: string; error?: string },
    }));
    setBusy(false);
    if (status === 200) setStep({ kind: "scan", qrSvg: body.qrSvg, manualKey: body.manualKey });
    else setError(body.error ?? UNEXPECTED_ERROR);
  }

  async function confirm(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const code = String(new FormData(event.currentTarget).get("code") ?? "");
    setBusy(true);
    const { status, body } = await sendJson<{ recoveryCodes: string[] }>("/api/conta/dois-fatores", { code }, "PUT").catch(() => ({
      status: 0,
      body: { error: UNEXPECTED_ERROR } as { recoveryCodes: string[]; error?: string; fields?: Record<string, string> },
    }));
    setBusy(false);
    if (status === 200) {
      setError(undefined);
      setStep({ kind: "codes", codes: body.recoveryCodes });
    } else setError(body.fields?.code ?? body.error ?? UNEXPECTED_ERROR);
  }

  if (step.kind === "loading") return error ? <p role="alert">{error}</p> : <p role="status">Carregando…</p>;
  if (step.kind === "status") {
    const { status } = step;
    if (!status.available) return <p>A verificação em duas etapas não está configurada neste portal. Fale com o administrador.</p>;
    if (status.enrolled) {
      return <p role="status">A verificação em duas etapas está ativa. Códigos de recuperação restantes: {status.recoveryCodesLeft}.</p>;
    }
    return (
      <div className="space-y-4">
        <p>Proteja sua conta: além da senha, o login vai pedir um código do aplicativo autenticador do seu celular.</p>
        {error && (
          <p role="alert" className="text-red-700 dark:text-red-400">
            {error}
          </p>
        )}
        <button type="button" className={buttonClass} disabled={busy} onClick={begin}>
          Ativar verificação em duas etapas
        </button>
      </div>
    );
  }
  if (step.kind === "scan") {
    return (
      <div className="space-y-4">
        <p>1. Leia o QR code com o aplicativo autenticador (Google Authenticator, Microsoft Authenticator, 1Password…).</p>
        <div
          role="img"
          aria-label="QR code da chave de verificação"
          className="w-56 rounded-lg bg-white p-2"
          dangerouslySetInnerHTML={{ __html: step.qrSvg }}
        />
        <p>
          Ou digite a chave manualmente:{" "}
          <code data-testid="two-factor-key" className="font-mono font-semibold">
            {step.manualKey}
          </code>
        </p>
        <form onSubmit={confirm} className="max-w-sm space-y-4" noValidate>
          <fieldset disabled={busy} className="space-y-4">
            <FormField
              id="enrol-code"
              name="code"
              label="2. Código de 6 dígitos"
              autoComplete="one-time-code"
              inputMode="numeric"
              error={error}
            />
            <SubmitButton busy={busy} label="Confirmar" />
          </fieldset>
        </form>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <p role="status" className="font-semibold">
        Verificação em duas etapas ativada.
      </p>
      <p>Guarde estes códigos de recuperação em lugar seguro. Cada um vale uma vez, e eles não serão mostrados de novo.</p>
      <ul aria-label="Códigos de recuperação" className="grid max-w-sm grid-cols-2 gap-2 font-mono">
        {step.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => {
            navigator.clipboard.writeText(step.codes.join("\n")).then(
              () => setCopyNotice("Códigos copiados."),
              () => setCopyNotice("Não foi possível copiar. Selecione os códigos e copie manualmente."),
            );
          }}
        >
          Copiar códigos
        </button>
        <button
          type="button"
          className={secondaryButtonClass}
          onClick={() => download("codigos-de-recuperacao-b1.txt", `${step.codes.join("\n")}\n`, "text/plain;charset=utf-8")}
        >
          Baixar códigos
        </button>
      </div>
      <p role="status" aria-live="polite" className="text-sm">
        {copyNotice}
      </p>
      <a href={next} className={`${buttonClass} inline-block`}>
        Continuar
      </a>
    </div>
  );
}
