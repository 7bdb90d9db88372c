"""Display names unique after NFKC + case folding (Player.name_key)."""

from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from games.text import name_key

    Player = apps.get_model("games", "Player")
    seen = set()
    for player in Player.objects.order_by("pk").only("pk", "display_name"):
        key = name_key(player.display_name)[:160]
        if key in seen:
            continue  # an older duplicate keeps NULL (not reserved); the first keeps the name
        seen.add(key)
        Player.objects.filter(pk=player.pk).update(name_key=key)


class Migration(migrations.Migration):

    dependencies = [("games", "0004_delivery_workers")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(blank=True, editable=False, max_length=160, null=True, unique=True),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
