from django.apps import AppConfig


class OnboardingConfig(AppConfig):
    """Guidelines, practice topics with feedback, and qualification before real work."""

    name = "onboarding"

    def ready(self) -> None:
        # The core asks these questions through annotation/gates.py; it never imports us.
        from annotation.gates import gates_register
        from onboarding.guided import guided_feedback_gate, guided_undo_gate
        from onboarding.selectors.practice import practice_suggestions_off, practice_topic_ids
        from onboarding.selectors.qualification import assignment_notes
        from onboarding.services.attempts import assignment_submitted
        from onboarding.services.qualification import edit_gate

        gates_register(
            notes=assignment_notes,
            edit_check=edit_gate,
            feedback=guided_feedback_gate,
            submitted=assignment_submitted,
            suggestions_off=practice_suggestions_off,
            practice=practice_topic_ids,
            undo_check=guided_undo_gate,
        )
