import { useEffect } from "react";
import { updatePasswordRules } from "../../../lib/auth/rules";
import { PasswordField, SubmitButton } from "../ui/FormField";
import { toast } from "../ui/toast";
import { useValidatedForm } from "../ui/use-validated-form";
import { ModeLink, type AuthMode } from "./ModeLink";
import { showError, submitAuth } from "./submit-auth";

export function UpdatePasswordForm({ token, onMode }: { token: string; onMode: (mode: AuthMode) => void }) {
  useEffect(() => {
    if (!token) showError("Link de redefinição ausente. Solicite um novo link em 'Esqueci minha senha'.");
  }, [token]);
  const { errors, busy, formProps } = useValidatedForm(updatePasswordRules, (data) =>
    submitAuth(
      "/api/auth/update-password",
      { ...data, token },
      {
        success: 200,
        onSuccess: () => {
          toast.success("Senha atualizada!", { description: "Entre com a sua nova senha." });
          onMode("signin");
        },
        onCode: { link_expired: () => window.location.assign("/link-expired?type=password-reset") },
      },
    ),
  );
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
        <ModeLink to="signin" onMode={onMode}>
          Voltar ao login
        </ModeLink>
      </div>
    </form>
  );
}
