import { signInRules } from "../../../lib/auth/rules";
import { PasswordField, SubmitButton } from "../ui/FormField";
import { useValidatedForm } from "../ui/use-validated-form";
import { ModeLink, type AuthMode } from "./ModeLink";
import { navigate, submitAuth } from "./submit-auth";

const confirmRules = { password: signInRules.password };

/** The confirmation link's form: the sign-up password finishes the confirmation; signing in comes after. */
export function ConfirmForm({ token, onMode }: { token: string; onMode: (mode: AuthMode) => void }) {
  const { errors, busy, formProps } = useValidatedForm(confirmRules, (data) =>
    submitAuth(
      "/api/auth/confirm",
      { ...data, token },
      {
        success: 200,
        onSuccess: () => navigate("/auth?confirmed=1"),
        onCode: { link_expired: () => window.location.assign("/link-expired?type=email-confirmation") },
      },
    ),
  );
  return (
    <form {...formProps} className="space-y-4">
      <p className="text-sm text-slate-600 dark:text-slate-300">Para ativar a conta, digite a senha que você criou no cadastro.</p>
      <fieldset disabled={busy} className="space-y-4">
        <PasswordField id="confirm-password" label="Senha" autoComplete="current-password" error={errors.password} name="password" />
        <SubmitButton busy={busy} label="Confirmar e-mail" />
      </fieldset>
      <div className="text-center">
        <ModeLink to="reset" onMode={onMode}>
          Esqueci minha senha
        </ModeLink>
      </div>
    </form>
  );
}
