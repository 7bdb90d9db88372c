import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0007_chouette")]

    operations = [
        migrations.CreateModel(
            name="Analysis",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("source", models.CharField(choices=[("match", "Match played here"), ("upload", "Uploaded .mat")],
                                            default="match", max_length=10)),
                ("white_name", models.CharField(max_length=40)),
                ("black_name", models.CharField(max_length=40)),
                ("length", models.PositiveSmallIntegerField(default=0, help_text="Points to win; 0 is a money session.")),
                ("depth", models.PositiveSmallIntegerField(default=2, help_text="GNU Backgammon plies.")),
                ("upload", models.JSONField(blank=True, default=dict, help_text="An upload's games as event lists.")),
                ("result", models.JSONField(blank=True, null=True)),
                ("white_pr", models.FloatField(blank=True, null=True)),
                ("black_pr", models.FloatField(blank=True, null=True)),
                ("white_decisions", models.PositiveIntegerField(default=0)),
                ("black_decisions", models.PositiveIntegerField(default=0)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                ("job", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                          related_name="+", to="games.job")),
                ("match", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                                            related_name="analyses", to="games.match")),
                ("owner", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                            related_name="+", to="games.player",
                                            help_text="Who asked for it (None: the automatic analysis at match end).")),
            ],
            options={"ordering": ["-pk"], "verbose_name_plural": "analyses",
                     "indexes": [models.Index(fields=["match", "-id"], name="games_analy_match_i_3ad38c_idx")]},
        ),
        migrations.AddField(
            model_name="match",
            name="aids",
            field=models.BooleanField(default=False, help_text="Hints and the tutor are allowed (unrated play only)."),
        ),
    ]
