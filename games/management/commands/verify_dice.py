"""``manage.py verify_dice GAME_ID [GAME_ID ...]``: recompute every roll of
finished games from their revealed seeds; exits 1 if any roll or commitment
does not match (or a game is unknown or unfinished)."""

from django.core.management.base import BaseCommand, CommandError

from games.errors import Conflict
from games.models import Game
from games.selectors.verify import verify_game


class Command(BaseCommand):
    help = "Verify the provably fair dice of finished games against their revealed seeds."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="+", type=int, metavar="game_id")

    def handle(self, *args, game_ids, **options):
        failed = []
        for game_id in game_ids:
            game = Game.objects.filter(pk=game_id).first()
            if game is None:
                self.stderr.write(f"game {game_id}: no such game")
                failed.append(game_id)
                continue
            try:
                result = verify_game(game)
            except Conflict as exc:
                self.stderr.write(f"game {game_id}: {exc.message}")
                failed.append(game_id)
                continue
            if result["ok"]:
                self.stdout.write(f"game {game_id}: OK, {result['rolls']} rolls verified "
                                  f"(seed {result['seed']}, commitment {result['commitment']})")
            else:
                failed.append(game_id)
                self.stdout.write(f"game {game_id}: MISMATCH ({len(result['problems'])} problems)")
                for problem in result["problems"]:
                    self.stdout.write(f"  - {problem}")
        if failed:
            raise CommandError(f"verification failed for game(s) {', '.join(map(str, failed))}", returncode=1)
