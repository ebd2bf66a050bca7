import { useEffect, useState } from "react";
import { Toasts, toast } from "../ui/toast";
import { CircleCheck, MailWarning } from "lucide-react";
import { resetRequestRules, signInRules, signUpRules, updatePasswordRules } from "../../../lib/auth-rules";
import { postJson, UNEXPECTED_ERROR } from "../../../lib/api-client";
import { FormField, PasswordField, SubmitButton } from "../ui/FormField";
import { useValidatedForm } from "../ui/use-validated-form";

export type AuthMode = "signin" | "signup" | "reset" | "update-password" | "confirm";

const SUBTITLES: Record<AuthMode, string> = {
  signup: "Crie sua conta com e-mail corporativo autorizado",
  signin: "Acesse sua conta",
  reset: "Digite seu e-mail para receber o link de recuperação",
  "update-password": "Defina sua nova senha",
  confirm: "Confirme seu e-mail",
};

const confirmRules = { password: signInRules.password };

function showError(message?: string) {
  toast.error("Erro", { description: message || UNEXPECTED_ERROR });
}

const linkClass = "text-sm font-medium text-brand-600 hover:underline dark:text-brand-100";

interface QueryState {
  mode: AuthMode;
  token: string;
  next: string;
  error: string | null;
  errorDescription: string | null;
  confirmed: boolean;
}

function readQuery(): QueryState {
  const params = new URLSearchParams(window.location.search);
  const modeParam = params.get("mode");
  const mode: AuthMode =
    modeParam === "update-password" || modeParam === "signup" || modeParam === "reset" || modeParam === "confirm" ? modeParam : "signin";
  return {
    mode,
    token: params.get("token") ?? "",
    next: params.get("next") ?? "/",
    error: params.get("error"),
    errorDescription: params.get("error_description"),
    confirmed: params.get("confirmed") === "1",
  };
}

/** /auth: sign-in, sign-up, reset request and new password (spec §2 Authentication screen). */
export default function AuthForm() {
  const [query] = useState(readQuery);
  const [mode, setMode] = useState<AuthMode>(query.mode);

  const go = (next: AuthMode) => {
    setMode(next);
    const url = new URL(window.location.href);
    url.search = next === "signin" ? "" : `?mode=${next}`;
    window.history.replaceState(null, "", url);
  };

  return (
    <div className="w-full max-w-md">
      <Toasts />
      <div className="mb-6 text-center">
        <h1 className="text-3xl font-bold">B1 Method Hub</h1>
        <p className="mt-1 text-slate-600 dark:text-slate-300">Acesso restrito a usuários autorizados</p>
      </div>
      {query.error === "email_not_confirmed" && mode === "signin" && (
        <div role="alert" className="mb-4 rounded-lg border border-amber-300 bg-amber-50 p-4 dark:border-amber-700 dark:bg-amber-950">
          <p className="flex items-center gap-2 font-semibold">
            <MailWarning className="size-5" aria-hidden="true" /> E-mail não confirmado
          </p>
          <p className="mt-1 text-sm">
            Você precisa confirmar seu e-mail antes de fazer login. Verifique sua caixa de entrada e clique no link de confirmação.
          </p>
        </div>
      )}
      {query.confirmed && mode === "signin" && (
        <div
          role="status"
          className="mb-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-700 dark:bg-emerald-950"
        >
          <p className="flex items-center gap-2 font-semibold">
            <CircleCheck className="size-5" aria-hidden="true" /> E-mail confirmado!
          </p>
          <p className="mt-1 text-sm">Entre com seu e-mail e senha para acessar o portal.</p>
        </div>
      )}
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-700 dark:bg-slate-900">
        <p className="mb-5 text-center font-medium">{SUBTITLES[mode]}</p>
        {mode === "signin" && <SignInForm next={query.next} onMode={go} />}
        {mode === "signup" && <SignUpForm onMode={go} />}
        {mode === "reset" && <ResetForm onMode={go} />}
        {mode === "update-password" && <UpdatePasswordForm token={query.token} onMode={go} />}
        {mode === "confirm" && <ConfirmForm token={query.token} onMode={go} />}
        {query.error && query.error !== "email_not_confirmed" && (
          <p role="alert" className="mt-4 text-center text-sm text-red-600 dark:text-red-400">
            {query.errorDescription || "Ocorreu um erro durante a autenticação"}
          </p>
        )}
      </div>
    </div>
  );
}

function SignInForm({ next, onMode }: { next: string; onMode: (mode: AuthMode) => void }) {
  const { errors, busy, formProps } = useValidatedForm(signInRules, async (data) => {
    try {
      const { status, body } = await postJson<{ next?: string }>("/api/auth/sign-in", { ...data, next });
      if (status === 200) {
        toast.success("Login realizado com sucesso!");
        window.location.assign(body.next ?? "/");
        return new Promise(() => {});
      }
      if (body.code === "email_not_confirmed") {
        window.location.assign("/auth?error=email_not_confirmed");
        return;
      }
      showError(body.error);
    } catch (error) {
      showError(error instanceof Error ? error.message : undefined);
    }
  });
  return (
    <form {...formProps} className="space-y-4">
      <fieldset disabled={busy} className="space-y-4">
        <FormField id="signin-email" label="E-mail" type="email" autoComplete="email" error={errors.email} name="email" />
        <PasswordField id="signin-password" label="Senha" autoComplete="current-password" error={errors.password} name="password" />
        <SubmitButton busy={busy} label="Entrar" />
      </fieldset>
      <div className="flex flex-col items-center gap-2">
        <button type="button" className={linkClass} onClick={() => onMode("reset")}>
          Esqueci minha senha
        </button>
        <button type="button" className={linkClass} onClick={() => onMode("signup")}>
          Não tem uma conta? Cadastrar-se
        </button>
      </div>
    </form>
  );
}

function SignUpForm({ onMode }: { onMode: (mode: AuthMode) => void }) {
  const { errors, busy, formProps } = useValidatedForm(signUpRules, async (data) => {
    try {
      const { status, body } = await postJson("/api/auth/sign-up", data);
      if (status === 201) {
        toast.success("Cadastro realizado!", { description: "Verifique seu e-mail para confirmar a conta antes de fazer login." });
        onMode("signin");
        return;
      }
      if (body.code === "invalid_domain" || body.code === "weak_password" || body.code === "email_taken") {
        window.location.assign(`/signup-error?error=${body.code}`);
        return;
      }
      showError(body.error);
    } catch (error) {
      showError(error instanceof Error ? error.message : undefined);
    }
  });
  return (
    <form {...formProps} className="space-y-4">
      <fieldset disabled={busy} className="space-y-4">
        <FormField id="signup-name" label="Nome completo" autoComplete="name" error={errors.fullName} name="fullName" />
        <FormField id="signup-email" label="E-mail corporativo" type="email" autoComplete="email" error={errors.email} name="email" />
        <p className="-mt-2 text-xs text-slate-500 dark:text-slate-400">Use seu e-mail corporativo autorizado.</p>
        <PasswordField id="signup-password" label="Senha" autoComplete="new-password" error={errors.password} name="password" />
        <PasswordField
          id="signup-confirm"
          label="Confirmar senha"
          autoComplete="new-password"
          error={errors.confirmPassword}
          name="confirmPassword"
        />
        <SubmitButton busy={busy} label="Cadastrar-se" />
      </fieldset>
      <div className="text-center">
        <button type="button" className={linkClass} onClick={() => onMode("signin")}>
          Já tem uma conta? Entrar
        </button>
      </div>
    </form>
  );
}

function ResetForm({ onMode }: { onMode: (mode: AuthMode) => void }) {
  const { errors, busy, formProps } = useValidatedForm(resetRequestRules, async (data) => {
    try {
      const { status, body } = await postJson("/api/auth/reset-request", data);
      if (status === 200) {
        window.location.assign("/confirmation-sent?type=password-reset");
        return new Promise(() => {});
      }
      if (status >= 500)
        toast.error("Erro ao enviar e-mail", { description: "Não foi possível enviar o link de redefinição. Tente novamente." });
      else showError(body.error);
    } catch {
      toast.error("Erro interno", { description: "Ocorreu um erro inesperado. Tente novamente." });
    }
  });
  return (
    <form {...formProps} className="space-y-4">
      <fieldset disabled={busy} className="space-y-4">
        <FormField id="reset-email" label="E-mail" type="email" autoComplete="email" error={errors.email} name="email" />
        <SubmitButton busy={busy} label="Recuperar Senha" />
      </fieldset>
      <div className="text-center">
        <button type="button" className={linkClass} onClick={() => onMode("signin")}>
          Voltar ao login
        </button>
      </div>
    </form>
  );
}

function UpdatePasswordForm({ token, onMode }: { token: string; onMode: (mode: AuthMode) => void }) {
  useEffect(() => {
    if (!token) showError("Link de redefinição ausente. Solicite um novo link em 'Esqueci minha senha'.");
  }, [token]);
  const { errors, busy, formProps } = useValidatedForm(updatePasswordRules, async (data) => {
    try {
      const { status, body } = await postJson("/api/auth/update-password", { ...data, token });
      if (status === 200) {
        toast.success("Senha atualizada!", { description: "Entre com a sua nova senha." });
        onMode("signin");
        return;
      }
      if (body.code === "link_expired") {
        window.location.assign("/link-expired?type=password-reset");
        return;
      }
      showError(body.error);
    } catch (error) {
      showError(error instanceof Error ? error.message : undefined);
    }
  });
  return (
    <form {...formProps} className="space-y-4">
      <fieldset disabled={busy} className="space-y-4">
        <PasswordField id="update-password" label="Nova senha" autoComplete="new-password" error={errors.password} name="password" />
        <PasswordField
          id="update-confirm"
          label="Confirmar nova senha"
          autoComplete="new-password"
          error={errors.confirmPassword}
          name="confirmPassword"
        />
        <SubmitButton busy={busy} label="Nova Senha" />
      </fieldset>
      <div className="text-center">
        <button type="button" className={linkClass} onClick={() => onMode("signin")}>
          Voltar ao login
        </button>
      </div>
    </form>
  );
}

function ConfirmForm({ token, onMode }: { token: string; onMode: (mode: AuthMode) => void }) {
  const { errors, busy, formProps } = useValidatedForm(confirmRules, async (data) => {
    try {
      const { status, body } = await postJson("/api/auth/confirm", { ...data, token });
      if (status === 200) {
        window.location.assign("/auth?confirmed=1");
        return new Promise(() => {});
      }
      if (body.code === "link_expired") {
        window.location.assign("/link-expired?type=email-confirmation");
        return;
      }
      showError(body.error);
    } catch (error) {
      showError(error instanceof Error ? error.message : undefined);
    }
  });
  return (
    <form {...formProps} className="space-y-4">
      <p className="text-sm text-slate-600 dark:text-slate-300">Para ativar a conta, digite a senha que você criou no cadastro.</p>
      <fieldset disabled={busy} className="space-y-4">
        <PasswordField id="confirm-password" label="Senha" autoComplete="current-password" error={errors.password} name="password" />
        <SubmitButton busy={busy} label="Confirmar e-mail" />
      </fieldset>
      <div className="text-center">
        <button type="button" className={linkClass} onClick={() => onMode("reset")}>
          Esqueci minha senha
        </button>
      </div>
    </form>
  );
}
