"""What must never leave the server while it is secret, and how the web keeps it in.

- ``Game.dice_seed`` decides every future roll: secret from everyone, staff and superusers
  included, until the game ends (then ``/games/<id>/verify/`` publishes it).
- ``Agent.key_hash`` and ``User.password`` are hashes of credentials: never searchable.

The admin refuses any lookup, filter, search or ordering that touches these fields
(:func:`is_secret_lookup`, used by ``games.admin``), and error reports (the DEBUG page,
the e-mails to admins, any use of Django's exception reporter) blank local variables and
dictionary keys whose names look secret (:class:`SecretsReporterFilter`, set as
``DEFAULT_EXCEPTION_REPORTER_FILTER``), in production and in DEBUG alike.

>>> is_secret_lookup("dice_seed__startswith")
True
>>> is_secret_lookup("game__match__white__user__password__regex")
True
>>> is_secret_lookup("status__exact")
False
"""

from __future__ import annotations

import re

from django.views.debug import SafeExceptionReporterFilter

SECRET_FIELDS = frozenset({"dice_seed", "key_hash", "password"})

# Names of variables and keys blanked in error reports.
SECRET_NAMES = re.compile(r"API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|SEED", re.I)


def is_secret_lookup(lookup: str) -> bool:
    """Whether a Django lookup path (``a__b__startswith``) touches a secret field."""
    return any(part in SECRET_FIELDS for part in str(lookup).lstrip("-").split("__"))


class SecretsReporterFilter(SafeExceptionReporterFilter):
    """Django's filter, always on (also with DEBUG), and blanking any local variable whose
    name looks secret (``seed``, ``dice_seed``, ``api_key``...) besides settings and POST
    parameters. Objects holding a seed (``games.dice.SeededDice``) show only their class."""

    hidden_settings = SECRET_NAMES

    def is_active(self, request):
        return True

    def get_traceback_frame_variables(self, request, tb_frame):
        out = []
        for name, value in super().get_traceback_frame_variables(request, tb_frame):
            if SECRET_NAMES.search(str(name)):
                value = self.cleansed_substitute
            elif type(value).__name__ == "SeededDice":
                value = f"<{type(value).__name__}: {self.cleansed_substitute}>"
            else:
                value = self.cleanse_setting(name, value) if isinstance(value, dict) else value
            out.append((name, value))
        return out


__all__ = ["SECRET_FIELDS", "is_secret_lookup", "SecretsReporterFilter"]
