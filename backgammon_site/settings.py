"""Settings for the backgammon site: one file, driven by environment variables.

With no environment at all this is the embedded development default: DEBUG on, SQLite
in the project root, the in-memory channel layer. Production sets DJANGO_DEBUG=0,
DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS and usually DATABASE_URL and REDIS_URL.
"""
import os
import warnings
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name, default):
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default=""):
    value = os.environ.get(name, default)
    return [item.strip() for item in value.split(",") if item.strip()]


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if DEBUG:
        SECRET_KEY = "django-insecure-dev-only-key-do-not-use-in-production-7c1f3b9e"
    else:
        raise ImproperlyConfigured(
            "DJANGO_SECRET_KEY is not set. It is required when DJANGO_DEBUG=0: set it to "
            "a long random string (for example the output of "
            "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`)."
        )

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost")
if "testserver" not in ALLOWED_HOSTS:
    ALLOWED_HOSTS.append("testserver")  # Django's test client
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "games.auth.SuspendedPlayerMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "backgammon_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "backgammon_site.wsgi.application"
ASGI_APPLICATION = "backgammon_site.asgi.application"

# Database: DATABASE_URL (e.g. postgres://user:pass@host:5432/name), else SQLite.
_sqlite_path = Path(os.environ.get("SQLITE_PATH") or BASE_DIR / "db.sqlite3")
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL",
        default=f"sqlite:///{_sqlite_path.resolve()}",
        conn_max_age=0,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers run beside the writer; IMMEDIATE transactions take the write lock up
    # front, so two server processes never deadlock upgrading a read lock.
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
    }
else:
    # Reuse connections for a minute; check them before reuse.
    DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("DJANGO_CONN_MAX_AGE", "60"))
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer: Redis when REDIS_URL is set (several server processes share groups),
# otherwise in-memory (one process only).
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                # redis-py 8 applies a client read timeout by default; the layer's
                # blocking reads need none, or websockets close with 1011.
                "hosts": [
                    {"address": REDIS_URL, "socket_timeout": None, "max_connections": 1000}
                ],
                "capacity": 10000,
                "expiry": 60,
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels.layers.InMemoryChannelLayer",
            "CONFIG": {"capacity": 10000},
        }
    }

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# The model backend, refusing suspended players at login and on every request.
AUTHENTICATION_BACKENDS = ["games.auth.ActivePlayerBackend"]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

if DEBUG:
    # In DEBUG WhiteNoise serves straight from STATICFILES_DIRS (its finders mode), so a
    # missing STATIC_ROOT (no collectstatic yet) is expected; don't warn about it.
    warnings.filterwarnings("ignore", message=r"No directory at: ", category=UserWarning)

EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend"
)

# Where game dice come from (dotted path to a class); tests inject a fixed source.
GAMES_DICE_SOURCE = os.environ.get("GAMES_DICE_SOURCE", "games.services.dice.seeded_dice")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
}

if not DEBUG:
    # Behind a TLS-terminating proxy that sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # DJANGO_SECURE_SSL_REDIRECT=0 when the proxy already redirects (e.g. the server
    # listens on loopback only); the deploy check's warning about it is then expected.
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    if not SECURE_SSL_REDIRECT:
        SILENCED_SYSTEM_CHECKS = ["security.W008"]
    SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    SECURE_REFERRER_POLICY = "same-origin"
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    X_FRAME_OPTIONS = "DENY"

# Realtime play (docs/PROTOCOL.md): seconds a disconnected player may be away before the
# opponent can claim the match, before the server closes the match itself, and between two
# runs of the per-process sweep (0 turns the sweep off).
GAMES_ABSENCE_GRACE = int(os.environ.get("GAMES_ABSENCE_GRACE", "120"))
GAMES_ABANDON_AFTER = int(os.environ.get("GAMES_ABANDON_AFTER", "1800"))
GAMES_SWEEP_INTERVAL = float(os.environ.get("GAMES_SWEEP_INTERVAL", "1"))
GAMES_WS_FLOOD_LIMIT = 40  # messages per 2 seconds on one socket before it is closed (1008)
GAMES_CHAT_LIMIT = 5  # chat lines per 10 seconds
