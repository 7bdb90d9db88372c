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
    "csp",
    "huey.contrib.djhuey",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",  # the cookie, then Accept-Language
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "games.auth.SuspendedPlayerMiddleware",
    "games.auth.PlayerLanguageMiddleware",  # a signed-in player's own choice wins
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
                "games.views.turns.your_turn",
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
    # No persistent connections (Django's advice under ASGI): every HTTP request runs its sync
    # code in a thread of its own that ends with the request, so a connection kept "per
    # thread" was never used again and never closed (two open files each: one web process
    # held 20,000 after an evening of bot play, issue 25). The one thread that lives as long
    # as the process and pays for a connection per call, the event loop's (the websocket
    # consumers' calls, GAMES_DB_IN_LOOP), keeps its own open (games/db/calls.py).
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
    }
else:
    # Under ASGI every request thread would keep a persistent connection of its own (two
    # Daphne processes held 95 at 14 clients). Instead each process keeps a pool of at most
    # DJANGO_DB_POOL_SIZE connections (psycopg's pool; a thread waits for a free one), checked
    # before each use, so a connection the server dropped is replaced, not failed on.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # Django's backend, whose pool checks a connection as it leaves the pool with no round
    # trip (backgammon_site/pg/base.py) instead of psycopg's empty query (CONN_HEALTH_CHECKS).
    DATABASES["default"]["ENGINE"] = "backgammon_site.pg"
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"]["OPTIONS"] = {
        "pool": {"min_size": 1, "max_size": int(os.environ.get("DJANGO_DB_POOL_SIZE", "12")), "timeout": 10}
    }
    if os.environ.get("DJANGO_TEST_DB_NAME"):
        # Two test runs on one server (two checkouts) each need a test database of their own.
        DATABASES["default"]["TEST"] = {"NAME": os.environ["DJANGO_TEST_DB_NAME"]}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Channel layer: the site's own (games.realtime.layer): groups in each process, and a bus that
# carries group messages to the other processes. With REDIS_URL the bus is Redis
# publish/subscribe (any number of machines); without it, Unix datagrams between the
# processes of this machine (the web process and the worker of `make run`).
REDIS_URL = os.environ.get("REDIS_URL", "")
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "games.realtime.layer.FanoutLayer",
        "CONFIG": {
            "bus": REDIS_URL or f"unix:{_sqlite_path.resolve()}.bus",
            "capacity": 1000,  # messages waiting for one socket before it drops some
            "expiry": 60,
        },
    }
}

# The cache holds the abuse limits (games/throttle.py: bot API rate limit, login and sign-up
# throttles): Redis when REDIS_URL is set, so every process counts together; in memory for
# the one-process embedded default. Django makes a cache object per thread and per async
# task, and its Redis backend a connection pool per cache object: one pool per request,
# never closed (1,442 connections after a minute, issue 25). backgammon_site.redis_cache
# keeps one pool per process.
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "backgammon_site.redis_cache.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "backgammon"}}
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Background work (games/tasks/): Huey, in two queues kept apart so long work can never
# hold up the work players wait on in seconds (docs/DEPLOY.md, "Two kinds of work"):
# * HUEY, the quick queue: house-bot turns, clocks, chouette deadlines and the periodic tick
#   (presence, healing, ...). Its workers: `manage.py run_huey`.
# * HUEY_LONG, the long queue: analysis jobs (matches played here and uploaded files). Its
#   workers: `manage.py run_long_worker`, threads of their own.
# The embedded default keeps each queue in a SQLite file next to the database, so `make run`
# needs no service; with REDIS_URL the queues are in Redis and any number of workers on any
# number of machines share them. The consumer options below are the commands' defaults.
_HUEY_CLASS = "huey.PriorityRedisHuey" if REDIS_URL else "huey.SqliteHuey"  # priorities: bot turns first


def _huey_connection(suffix: str) -> dict:
    if REDIS_URL:
        return {"url": REDIS_URL}
    path = os.environ.get("HUEY_SQLITE_PATH") or f"{_sqlite_path.resolve()}.huey"
    return {"filename": path + suffix, "timeout": 10}


HUEY = {
    "huey_class": _HUEY_CLASS,
    "name": "backgammon",
    "immediate": env_bool("GAMES_TASKS_IMMEDIATE", False),  # tests: run tasks inline, at enqueue
    "utc": True,
    "connection": _huey_connection(""),
    "consumer": {
        "workers": int(os.environ.get("GAMES_WORKER_THREADS", "4")),
        "worker_type": "thread",
        "initial_delay": 0.05,  # an idle worker looks for tasks at least every 0.1 s (bot replies)
        "backoff": 1.15,
        "max_delay": 0.1,
        "scheduler_interval": 1,
        "periodic": True,
        "check_worker_health": True,
    },
}

HUEY_LONG = {
    "huey_class": _HUEY_CLASS,  # priorities: a player's own request before automatic analyses
    "name": "backgammon-long",
    "immediate": env_bool("GAMES_TASKS_IMMEDIATE", False),
    "utc": True,
    "connection": _huey_connection("-long"),
    "consumer": {
        "workers": int(os.environ.get("GAMES_LONG_WORKER_THREADS", "2")),
        "worker_type": "thread",
        "initial_delay": 0.1,
        "backoff": 1.15,
        "max_delay": 1.0,
        "scheduler_interval": 1,
        "periodic": False,  # the periodic work is the quick queue's
        "check_worker_health": True,
    },
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

# The players' languages (docs/TRANSLATING.md): each one's catalogue is locale/<code>/LC_MESSAGES.
# Chosen from the profile (signed-in players), else the language cookie (the switcher on every
# page), else the browser's Accept-Language (LocaleMiddleware). A new language is one line here
# and one catalogue. Names are written in their own language, as a switcher shows them.
LANGUAGE_CODE = "en"
LANGUAGES = [
    ("en", "English"), ("tr", "Türkçe"), ("el", "Ελληνικά"), ("ar", "العربية"), ("he", "עברית"),
    ("ru", "Русский"), ("es", "Español"), ("it", "Italiano"), ("fr", "Français"), ("de", "Deutsch"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
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

# E-mail (the notices, password resets): the console by default; SMTP when DJANGO_EMAIL_HOST is set.
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get(
    "DJANGO_EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT") or 587)
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = os.environ.get("DJANGO_EMAIL_USE_TLS", "1") not in ("0", "false", "no", "")
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "backgammon@localhost")

# Error reports (the DEBUG page, e-mails to admins) blank secret-looking variables, a running
# game's dice seed included, in DEBUG too (games/selectors/redact.py, docs/SECURITY.md).
DEFAULT_EXCEPTION_REPORTER_FILTER = "games.selectors.redact.SecretsReporterFilter"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("DJANGO_LOG_LEVEL", "INFO")},
    # `manage.py run_huey` gives Huey's logger a handler of its own: one line per message.
    "loggers": {"huey": {"level": "INFO", "propagate": False}},
}

# Content-Security-Policy (django-csp 4): scripts and styles only from the site's own files
# (no inline script, no style attributes), sockets to the same origin, no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# The usual headers, in development too (production adds HSTS and secure cookies below).
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"

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

# The site's own settings (GAMES_*: limits, delays, the analysis depth...) are read by
# games/conf.py, from Django's settings or the environment, each with its default there.
