//! The words of the messages Cardio sends (address verification, password reset, sharing
//! invitation) in each interface language: one table per language with the same fields, so a
//! missing translation is a compile error and an empty one fails the test below. `{link}`,
//! `{doctor}` and `{base}` are filled in when a message is written.

use crate::accounts::settings::Language;

/// Every text of the messages in one language.
#[derive(Debug)]
pub struct MailTexts {
    /// Subject of the verification message.
    pub verify_subject: &'static str,
    /// Its body (`{link}`).
    pub verify_body: &'static str,
    /// Subject of the password-reset message.
    pub reset_subject: &'static str,
    /// Its body (`{link}`).
    pub reset_body: &'static str,
    /// Subject of the sharing invitation.
    pub invite_subject: &'static str,
    /// Its body (`{doctor}`, `{base}`).
    pub invite_body: &'static str,
}

const EN: MailTexts = MailTexts {
    verify_subject: "Verify your email address for Cardio",
    verify_body: "Hello,\n\nPlease confirm that this is your email address for Cardio by opening this link \
         within 24 hours:\n\n{link}\n\nIf you did not ask for this, you can ignore this message.\n\n\
         Cardio\n",
    reset_subject: "Reset your Cardio password",
    reset_body: "Hello,\n\nSomeone asked to reset the password of your Cardio account. To choose a new \
         password, open this link within one hour:\n\n{link}\n\nIf you did not ask for this, \
         you can ignore this message; your password stays the same.\n\nCardio\n",
    invite_subject: "Results shared with you on Cardio",
    invite_body: "{doctor} has shared screening results with you on Cardio.\n\n\
         To see them, sign in (or create a patient account) with this e-mail address at\n\
         {base}/login\n\
         verify the address when asked, then accept the invitation on your home page.\n\n\
         These are screening results, not a diagnosis: talk to your doctor about them.\n\n\
         Cardio\n",
};

const ES: MailTexts = MailTexts {
    verify_subject: "Verifique su dirección de correo para Cardio",
    verify_body: "Hola:\n\nConfirme que esta es su dirección de correo para Cardio abriendo este enlace \
         en las próximas 24 horas:\n\n{link}\n\nSi no lo ha solicitado, puede ignorar este mensaje.\n\n\
         Cardio\n",
    reset_subject: "Restablezca su contraseña de Cardio",
    reset_body: "Hola:\n\nAlguien ha pedido restablecer la contraseña de su cuenta de Cardio. Para elegir \
         una contraseña nueva, abra este enlace en la próxima hora:\n\n{link}\n\nSi no lo ha \
         solicitado, puede ignorar este mensaje; su contraseña no cambia.\n\nCardio\n",
    invite_subject: "Resultados compartidos con usted en Cardio",
    invite_body: "{doctor} ha compartido con usted resultados de cribado en Cardio.\n\n\
         Para verlos, inicie sesión (o cree una cuenta de paciente) con esta dirección de correo en\n\
         {base}/login\n\
         verifique la dirección cuando se le pida y acepte la invitación en su página de inicio.\n\n\
         Son resultados de cribado, no un diagnóstico: hable de ellos con su médico.\n\n\
         Cardio\n",
};

const FR: MailTexts = MailTexts {
    verify_subject: "Vérifiez votre adresse e-mail pour Cardio",
    verify_body: "Bonjour,\n\nConfirmez que cette adresse e-mail est bien la vôtre pour Cardio en ouvrant ce \
         lien dans les 24 heures :\n\n{link}\n\nSi vous n'avez rien demandé, vous pouvez ignorer ce \
         message.\n\nCardio\n",
    reset_subject: "Réinitialisez votre mot de passe Cardio",
    reset_body: "Bonjour,\n\nQuelqu'un a demandé la réinitialisation du mot de passe de votre compte Cardio. \
         Pour choisir un nouveau mot de passe, ouvrez ce lien dans l'heure :\n\n{link}\n\nSi vous \
         n'avez rien demandé, vous pouvez ignorer ce message ; votre mot de passe reste le même.\n\n\
         Cardio\n",
    invite_subject: "Des résultats ont été partagés avec vous sur Cardio",
    invite_body: "{doctor} a partagé des résultats de dépistage avec vous sur Cardio.\n\n\
         Pour les voir, connectez-vous (ou créez un compte patient) avec cette adresse e-mail sur\n\
         {base}/login\n\
         vérifiez l'adresse quand cela vous est demandé, puis acceptez l'invitation sur votre page d'accueil.\n\n\
         Ce sont des résultats de dépistage, pas un diagnostic : parlez-en à votre médecin.\n\n\
         Cardio\n",
};

/// The messages' texts in `language`.
pub fn of(language: Language) -> &'static MailTexts {
    match language {
        Language::En => &EN,
        Language::Es => &ES,
        Language::Fr => &FR,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_every_text_with_its_placeholders() {
        for texts in [&EN, &ES, &FR] {
            let fields = [
                (texts.verify_subject, &[][..]),
                (texts.verify_body, &["{link}"][..]),
                (texts.reset_subject, &[][..]),
                (texts.reset_body, &["{link}"][..]),
                (texts.invite_subject, &[][..]),
                (texts.invite_body, &["{doctor}", "{base}/login"][..]),
            ];
            for (text, placeholders) in fields {
                assert!(!text.trim().is_empty(), "{texts:?}");
                for p in placeholders {
                    assert!(text.contains(p), "{p} missing in {text}");
                }
            }
        }
        assert_ne!(ES.verify_body, EN.verify_body);
        assert_ne!(FR.invite_body, EN.invite_body);
    }
}
