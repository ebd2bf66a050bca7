import { resetRequestRules } from "../../../lib/auth/rules";
import { FormField, SubmitButton } from "../ui/FormField";
import { toast } from "../ui/toast";
import { useValidatedForm } from "../ui/use-validated-form";
import { ModeLink, type AuthMode } from "./ModeLink";
import { navigate, showError, submitAuth } from "./submit-auth";

export function ResetForm({ onMode }: { onMode: (mode: AuthMode) => void }) {
  const { errors, busy, formProps } = useValidatedForm(resetRequestRules, (data) =>
    submitAuth("/api/auth/reset-request", data, {
      success: 200,
      onSuccess: () => navigate("/confirmation-sent?type=password-reset"),
      onFailure: (status, body) => {
        if (status >= 500)
          toast.error("Erro ao enviar e-mail", { description: "Não foi possível enviar o link de redefinição. Tente novamente." });
        else showError(body.error);
      },
      onThrow: () => toast.error("Erro interno", { description: "Ocorreu um erro inesperado. Tente novamente." }),
    }),
  );
  return (
    <form {...formProps} className="space-y-4">
      <fieldset disabled={busy} className="space-y-4">
        <FormField id="reset-email" label="E-mail" type="email" autoComplete="email" error={errors.email} name="email" />
        <SubmitButton busy={busy} label="Recuperar Senha" />
      </fieldset>
      <div className="text-center">
        <ModeLink to="signin" onMode={onMode}>
          Voltar ao login
        </ModeLink>
      </div>
    </form>
  );
}
