from django.contrib import admin
from django.urls import include, path

from games.views import accounts

urlpatterns = [
    path("admin/", admin.site.urls),
    # Before Django's auth URLs: the login form that explains a suspension, and sign-up.
    path("accounts/login/", accounts.PlayerLoginView.as_view(), name="login"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("api/", include("games.api.urls")),  # the bot API (docs/BOT_API.md)
    path("", include("games.urls")),
]
