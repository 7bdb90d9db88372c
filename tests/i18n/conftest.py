import pytest
from django.core.management import call_command


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogues():
    """The .mo files `make test` builds, also when pytest runs alone."""
    call_command("compile_catalogs", verbosity=0)
