from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("games/<int:game_id>/verify/", views.game_verify, name="game_verify"),
    path("matches/<int:match_id>/export.mat", views.match_export_mat, name="match_export_mat"),
]
